// Every agent Context Lens reads, behind the adapter port (port.ts). The host and the CLI find an
// agent here, by its id or by the file they were given; they import no adapter directly.
import { claudeCodeAdapter } from './claude-code/adapter';
import { codexAdapter } from './codex/adapter';
import type { AgentAdapter } from './port';
import type { AgentId } from './types';

/** In the order a file is offered to them: Claude Code last, as it takes any JSONL file. */
export const AGENTS: readonly AgentAdapter[] = [codexAdapter, claudeCodeAdapter];

export function adapterOf(id: AgentId): AgentAdapter {
  return AGENTS.find((adapter) => adapter.id === id) ?? claudeCodeAdapter;
}

/** The agent whose session file `path` is (by its place or its first record). */
export async function adapterForFile(path: string): Promise<AgentAdapter> {
  for (const adapter of AGENTS) if (await adapter.owns(path)) return adapter;
  return claudeCodeAdapter;
}
