// What every command gets and how it fails. Expected failures are thrown as `CliError` and turned
// into one line on stderr plus an exit code by `main`; anything else is a bug and keeps its stack.
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { AGENTS, adapterOf, identifyFile } from '../sessions/agents';
// eslint-disable-next-line no-restricted-imports -- until the places listed go through the port (issue #25)
import { type ConfigDirOptions, resolveConfigDirs } from '../sessions/claude-code';
import type { AgentAdapter, SessionLocations } from '../sessions/port';
import type { AgentId } from '../sessions/types';
import { inputError, usageError } from './errors';

export interface Io {
  out: NodeJS.WritableStream;
  err: NodeJS.WritableStream;
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

export const CONFIG_DIR_OPTION = { 'config-dir': { type: 'string', multiple: true }, 'codex-home': { type: 'string', multiple: true } } as const;
export const AGENT_OPTION = { agent: { type: 'string' } } as const;

/** `--agent claude-code|codex`; undefined when not given (every agent, or the file's own). */
export function agentOption(value: string | undefined): AgentAdapter | undefined {
  if (value === undefined) return undefined;
  const known = AGENTS.map((adapter) => adapter.id);
  if (!known.includes(value as AgentId)) throw usageError(`--agent takes ${known.join(' or ')}, got '${value}'`);
  return adapterOf(value as AgentId);
}

export function locationsOf(values: { 'config-dir'?: string[]; 'codex-home'?: string[] }, io: Io): SessionLocations {
  return { claudeConfigDirs: values['config-dir'] ?? [], codexHomes: values['codex-home'] ?? [], env: io.env };
}

export function configDirOptions(configDirs: readonly string[] | undefined, io: Io): ConfigDirOptions {
  return { configDirs: configDirs ?? [], env: io.env };
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
export async function resolveSession(target: string | undefined, values: { 'config-dir'?: string[]; 'codex-home'?: string[] }, io: Io, only: AgentAdapter | undefined): Promise<Resolved> {
  if (target === undefined || target === '') throw usageError('missing <file|id>');
  const found = pathState(target);
  if (found === 'loop') throw inputError(`symlink loop: ${target}`);
  if (found === 'other') throw inputError(`not a regular file: ${target}`);
  if (found === 'file') {
    const path = resolve(target);
    if (only) return { path, adapter: only };
    const told = await identifyFile(path);
    // Read all the same (the reader reports what it cannot use), but never silently as the wrong agent's.
    if (told.unrecognised !== undefined) io.err.write(`context-lens: ${told.unrecognised} Pass --agent claude-code or --agent codex to choose.\n`);
    return { path, adapter: told.adapter };
  }
  if (target.includes('/') || target.endsWith('.jsonl')) throw inputError(`no such transcript: ${target}`);
  for (const adapter of only ? [only] : AGENTS) {
    const listed = await adapter.listSessions(locationsOf(values, io));
    const session = listed.ok ? listed.value.find((candidate) => candidate.id === target) : undefined;
    if (session) return { path: session.path, adapter };
  }
  throw inputError(`unknown session id '${target}' (looked in ${listingPlaces(configDirOptions(values['config-dir'], io))} and the Codex homes; pass --config-dir or --codex-home)`);
}

/** What a path names: a regular file, nothing, a symlink loop, or something else (folder, FIFO…). */
function pathState(path: string): 'file' | 'missing' | 'loop' | 'other' {
  try {
    return statSync(path).isFile() ? 'file' : 'other';
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ELOOP' ? 'loop' : 'missing';
  }
}

function listingPlaces(config: ConfigDirOptions): string {
  const dirs = resolveConfigDirs(config);
  return dirs.length > 0 ? dirs.join(', ') : 'no Claude Code config folder found; pass --config-dir';
}

export function writeJson(io: Io, value: unknown): void {
  io.out.write(`${JSON.stringify(value, null, 2)}\n`);
}
