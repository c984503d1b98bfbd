// Every agent Context Lens reads, behind the adapter port (port.ts). The host and the CLI find an
// agent here, by its id or by the file they were given; they import no adapter directly.
import { claudeCodeAdapter } from './claude-code/adapter';
import { clineAdapter } from './cline/adapter';
import { codexAdapter } from './codex/adapter';
import { geminiAdapter } from './gemini/adapter';
import { kiloAdapter } from './kilo/adapter';
import { opencodeAdapter } from './opencode/adapter';
import type { ToolVocabulary } from '../engine';
import type { AgentAdapter } from './port';
import type { AgentId } from './types';

/** In the order a file is offered to them. */
export const AGENTS: readonly AgentAdapter[] = [codexAdapter, geminiAdapter, kiloAdapter, opencodeAdapter, clineAdapter, claudeCodeAdapter];

export function adapterOf(id: AgentId): AgentAdapter {
  return AGENTS.find((adapter) => adapter.id === id) ?? claudeCodeAdapter;
}

/** "a, b or c" */
const inWords = (words: readonly string[]): string => (words.length < 2 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} or ${words.at(-1)}`);

/** "Claude Code, Codex CLI or Gemini CLI", for messages. */
export const AGENT_NAMES = inWords(AGENTS.map((adapter) => adapter.name));
/** "`claude`, `codex` or `gemini`": what a person starts in a folder, for messages. */
export const AGENT_COMMANDS = inWords(AGENTS.map((adapter) => `\`${adapter.command}\``));

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
    unrecognised: `${path} is not a session file that ${AGENT_NAMES} writes (none of them recognised its first records); read as ${claudeCodeAdapter.name}'s, it may show nothing.`,
  };
}

/**
 * Every agent's tools at once, for a request whose agent is not told (the live proxy sees only the
 * API): the agents' tool names do not collide, so each keeps its own category.
 */
export const EVERY_AGENTS_TOOLS: ToolVocabulary = {
  categories: Object.assign({}, ...AGENTS.map((adapter) => adapter.tools.categories)) as ToolVocabulary['categories'],
  fileReadingShells: AGENTS.flatMap((adapter) => adapter.tools.fileReadingShells ?? []),
};
