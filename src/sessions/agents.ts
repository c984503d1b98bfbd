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

/**
 * One adapter per agent id, in the order a file is offered to them. `satisfies` keeps it exhaustive:
 * an id without its adapter, or an adapter of no known id, does not compile.
 */
const REGISTRY = {
  codex: codexAdapter,
  gemini: geminiAdapter,
  kilo: kiloAdapter,
  opencode: opencodeAdapter,
  cline: clineAdapter,
  'claude-code': claudeCodeAdapter,
} satisfies Record<AgentId, AgentAdapter>;

export const AGENTS: readonly AgentAdapter[] = Object.values(REGISTRY);

/** Every environment variable an agent's reading depends on, by the agents' own word. */
export function agentEnvNames(): string[] {
  return [...new Set(AGENTS.flatMap(({ home }) => [...(home.env ? [home.env] : []), ...(home.otherEnv ?? [])]))];
}

/** The adapter of `id`; every id has one (the registry is exhaustive), none is guessed. */
export function adapterOf(id: AgentId): AgentAdapter {
  const adapter: AgentAdapter | undefined = REGISTRY[id];
  // Only a value from outside the type system (a stored record of an older build) gets here.
  if (adapter === undefined) throw new Error(`No agent '${String(id)}' here: Context Lens reads ${AGENT_NAMES}`);
  return adapter;
}

/** "a, b or c" */
const inWords = (words: readonly string[]): string => (words.length < 2 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} or ${words.at(-1)}`);

/** "Claude Code, Codex CLI or Gemini CLI", for messages. */
export const AGENT_NAMES = inWords(AGENTS.map((adapter) => adapter.name));
/** "`claude`, `codex` or `gemini`": what a person starts in a folder, for messages. */
export const AGENT_COMMANDS = inWords(AGENTS.map((adapter) => `\`${adapter.command}\``));

/** The agent whose session file it is, or, when none recognised it, what to tell the person (no agent is guessed). */
export type FileAgent = { adapter: AgentAdapter; unrecognised?: undefined } | { adapter?: undefined; unrecognised: string };

/** The agent whose session file `path` is, told by its first records (or its place); refused by name when none is. */
export async function identifyFile(path: string): Promise<FileAgent> {
  for (const adapter of AGENTS) if (await adapter.owns(path)) return { adapter };
  return { unrecognised: `${path} is not a session file that ${AGENT_NAMES} writes (none of them recognised its first records)` };
}

/**
 * Every agent's tools at once, for a request whose agent is not told (the live proxy sees only the
 * API): the agents' tool names do not collide, so each keeps its own category.
 */
export const EVERY_AGENTS_TOOLS: ToolVocabulary = {
  categories: Object.assign({}, ...AGENTS.map((adapter) => adapter.tools.categories)) as ToolVocabulary['categories'],
  fileReadingShells: AGENTS.flatMap((adapter) => adapter.tools.fileReadingShells ?? []),
};
