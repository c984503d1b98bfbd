// Every agent Context Lens reads, behind the adapter port (port.ts). The host and the CLI find an
// agent here, by its id or by the file they were given; they import no adapter directly.
import { claudeCodeAdapter } from './claude-code/adapter';
import { codexAdapter } from './codex/adapter';
import { opencodeAdapter } from './opencode/adapter';
import type { AgentAdapter } from './port';
import type { AgentId } from './types';

/** In the order a file is offered to them. */
export const AGENTS: readonly AgentAdapter[] = [codexAdapter, opencodeAdapter, claudeCodeAdapter];

export function adapterOf(id: AgentId): AgentAdapter {
  return AGENTS.find((adapter) => adapter.id === id) ?? claudeCodeAdapter;
}

export interface FileAgent {
  /** The agent whose session file it is; Claude Code's reader when none recognised it (it reports what it cannot read). */
  adapter: AgentAdapter;
  /** Set when no agent recognised the file: what to tell the person. */
  unrecognised?: string;
}

/** The agent whose session file `path` is, told by its first records. */
export async function identifyFile(path: string): Promise<FileAgent> {
  for (const adapter of AGENTS) if (await adapter.owns(path)) return { adapter };
  return {
    adapter: claudeCodeAdapter,
    unrecognised: `${path} is neither a Codex rollout (its first record is not a session_meta) nor a Claude Code transcript (none of its first records has a type Claude Code writes); read as Claude Code, it may show nothing.`,
  };
}
