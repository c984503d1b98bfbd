// What every command gets and how it fails. Expected failures are thrown as `CliError` and turned
// into one line on stderr plus an exit code by `main`; anything else is a bug and keeps its stack.
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { AGENT_NAMES, AGENTS, identifyFile } from '../sessions/agents';

export { AGENT_NAMES };
import type { AgentAdapter, SessionLocations } from '../sessions/port';
import { inputError, usageError } from './errors';
import { findSessionById } from './sessionId';
import type { Output } from './stdio';

export interface Io {
  out: Output;
  err: Output;
  env: Readonly<Record<string, string | undefined>>;
}

// Also here for the commands: one import for what every command needs.
export { CliError, EXIT_INPUT, EXIT_OK, EXIT_USAGE, inputError, usageError } from './errors';

type Options = NonNullable<ParseArgsConfig['options']>;

/** `node:util` parseArgs, strict, with its TypeErrors (unknown flag, missing value) as usage errors. */
export function parse<T extends Options>(args: readonly string[], options: T, positionals: number) {
  let parsed;
  try {
    parsed = parseArgs({ args: [...args], options, allowPositionals: true, strict: true });
  } catch (error) {
    throw usageError(parseErrorText(error));
  }
  if (parsed.positionals.length > positionals) throw usageError(`unexpected argument '${parsed.positionals[positionals] ?? ''}'`);
  return parsed;
}

/** Node's parseArgs messages in our words: the flag and what is wrong, without its advice on `--`. */
function parseErrorText(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const flag = /'(-[^' ]*)/.exec(message)?.[1] ?? '';
  switch ((error as { code?: string }).code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION':
      return `unknown option '${flag}'`;
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE':
      return /argument missing/.test(message) ? `${flag} needs a value` : `${flag} takes no value`;
    default:
      return message;
  }
}

/** A positive integer option, or undefined when absent. */
export function positiveInt(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const number = Number(value);
  if (!Number.isInteger(number) || number <= 0) throw usageError(`${flag} needs a positive integer, got '${value}'`);
  return number;
}

/** Each agent's option naming where its sessions are (`--config-dir`, `--codex-home`, …), repeatable. */
export const HOME_OPTIONS: Readonly<Record<string, { type: 'string'; multiple: true }>> = Object.fromEntries(
  AGENTS.map((adapter) => [adapter.home.option, { type: 'string', multiple: true }]),
);
export const AGENT_OPTION = { agent: { type: 'string' } } as const;
/** What values a parse with HOME_OPTIONS holds for them. */
export type HomeValues = Readonly<Record<string, unknown>>;

/** `[--agent a|b] [--config-dir DIR]… …` for the usage texts: every registered agent. */
export const AGENT_USAGE = `[--agent ${AGENTS.map((adapter) => adapter.id).join('|')}] ${AGENTS.map((adapter) => `[--${adapter.home.option} DIR]…`).join(' ')}`;
/** One line per agent: its option and where it looks by default. */
export const HOMES_USAGE = AGENTS.map((adapter) => `--${adapter.home.option} DIR: where ${adapter.name} sessions are (default: ${adapter.home.describe})`).join(
  '\n  ',
);

/** `--agent <id>`; undefined when not given (every agent, or the file's own). */
export function agentOption(value: string | undefined): AgentAdapter | undefined {
  if (value === undefined) return undefined;
  const adapter = AGENTS.find((candidate) => candidate.id === value);
  if (adapter === undefined) throw usageError(`--agent takes ${AGENTS.map((candidate) => candidate.id).join(', ')}, got '${value}'`);
  return adapter;
}

export function locationsOf(values: HomeValues, io: Io): SessionLocations {
  const homes = AGENTS.map((adapter) => [adapter.id, values[adapter.home.option]] as const);
  return { homes: Object.fromEntries(homes.map(([id, dirs]) => [id, Array.isArray(dirs) ? dirs.map(String) : []])), env: io.env };
}

export interface Resolved {
  path: string;
  /** The agent that wrote the file: `--agent`, else told by the file itself. */
  adapter: AgentAdapter;
}

/**
 * A session file named by path, or by session id (looked up in every agent's folders, or only
 * `--agent`'s). A path wins, so a file called like an id in the working folder is still read as a file.
 */
export async function resolveSession(target: string | undefined, values: HomeValues, io: Io, only: AgentAdapter | undefined): Promise<Resolved> {
  if (target === undefined || target === '') throw usageError('missing <file|id>');
  const found = pathState(target);
  if (found === 'loop') throw inputError(`symlink loop: ${target}`);
  if (found === 'other') throw inputError(`not a regular file: ${target}`);
  if (found === 'file') {
    const path = resolve(target);
    if (only) return { path, adapter: only };
    const told = await identifyFile(path);
    // Refused by name: read as some agent's, a file none of them wrote would show nothing, or nonsense.
    if (told.adapter === undefined)
      throw inputError(`${told.unrecognised}. If one of them did write it, pass --agent ${AGENTS.map((adapter) => adapter.id).join('|')}.`);
    return { path, adapter: told.adapter };
  }
  // A session inside a store (OpenCode's `<database>#<session id>`) is no file of its own: its agent knows it.
  if (!target.includes('#') && (target.includes('/') || target.endsWith('.jsonl'))) throw inputError(`no such transcript: ${target}`);
  // An id, a unique start of one (as git takes a short hash), or a store path ending in either.
  return findSessionById(target, only ? [only] : AGENTS, locationsOf(values, io));
}

/** What a path names: a regular file, nothing, a symlink loop, or something else (folder, FIFO…). */
function pathState(path: string): 'file' | 'missing' | 'loop' | 'other' {
  try {
    return statSync(path).isFile() ? 'file' : 'other';
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ELOOP' ? 'loop' : 'missing';
  }
}

export function writeJson(io: Io, value: unknown): void {
  io.out.write(`${JSON.stringify(value, null, 2)}\n`);
}
