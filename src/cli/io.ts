// What every command gets and how it fails. Expected failures are thrown as `CliError` and turned
// into one line on stderr plus an exit code by `main`; anything else is a bug and keeps its stack.
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import type { SessionInfo } from '../sessions/types';
import { type ConfigDirOptions, listSessions, resolveConfigDirs } from '../sessions/claude-code';
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

export const CONFIG_DIR_OPTION = { 'config-dir': { type: 'string', multiple: true } } as const;

export function configDirOptions(configDirs: readonly string[] | undefined, io: Io): ConfigDirOptions {
  return { configDirs: configDirs ?? [], env: io.env };
}

/**
 * A transcript named by path, or by session id (looked up in the config folders). A path wins, so a
 * file called like an id in the working folder is still read as a file.
 */
export async function resolveTranscript(target: string | undefined, config: ConfigDirOptions): Promise<string> {
  if (target === undefined || target === '') throw usageError('missing <file|id>');
  const found = pathState(target);
  if (found === 'file') return resolve(target);
  if (found === 'loop') throw inputError(`symlink loop: ${target}`);
  if (found === 'other') throw inputError(`not a regular file: ${target}`);
  if (target.includes('/') || target.endsWith('.jsonl')) throw inputError(`no such transcript: ${target}`);
  const listed = await listSessions(config);
  if (!listed.ok) throw inputError(listed.error.message);
  const session: SessionInfo | undefined = listed.value.sessions.find((candidate) => candidate.id === target);
  if (session === undefined) throw inputError(`unknown session id '${target}' (looked in ${listingPlaces(config)})`);
  return session.path;
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
