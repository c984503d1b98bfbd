// Where Claude Code keeps transcripts: `<config>/projects/<encoded cwd>/<sessionId>.jsonl`.
//
// The folder name is Claude Code's `sanitizePath(cwd)`: every character outside [a-zA-Z0-9]
// becomes `-`; a result longer than 200 characters is cut to 200 and suffixed with `-` and a
// base-36 hash of the cwd. Which hash depends on the runtime the CLI ran in: under Node it is
// `Math.abs(h).toString(36)` with `h = (h * 31 + charCode) | 0` over UTF-16 units (what the public
// Claude Code sources call djb2Hash), under Bun (the native build) it is `Bun.hash` (wyhash), which
// we do not reproduce. So for long paths we try the Node hash, then accept any folder that starts
// with the 200-character prefix and whose records name our cwd.
import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { homedir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { canonicalCwd } from '../common/paths';

export const MAX_ENCODED_LENGTH = 200;

export interface ConfigDirOptions {
  /** Explicit folders (the `claudeCode.configDirs` setting); when non-empty they are used as given. */
  configDirs?: readonly string[];
  env?: Readonly<Record<string, string | undefined>>;
  home?: string;
}

/**
 * Claude Code configuration folders to search: the explicit list, else `CLAUDE_CONFIG_DIR`
 * (comma-separated values allowed), else the existing ones of `~/.claude` and `~/.config/claude`.
 */
export function resolveConfigDirs(options: ConfigDirOptions = {}): string[] {
  const explicit = (options.configDirs ?? []).map((dir) => dir.trim()).filter((dir) => dir !== '');
  if (explicit.length > 0) return unique(explicit.map((dir) => resolve(dir)));
  const fromEnv = (options.env ?? process.env).CLAUDE_CONFIG_DIR;
  if (fromEnv !== undefined && fromEnv.trim() !== '') {
    return unique(
      fromEnv
        .split(',')
        .map((dir) => dir.trim())
        .filter((dir) => dir !== '')
        .map((dir) => resolve(dir)),
    );
  }
  const home = options.home ?? homedir();
  return [join(home, '.claude'), join(home, '.config', 'claude')].filter((dir) => existsSync(dir));
}

/**
 * The project folders Claude Code will write `cwd`'s sessions to, whether or not they exist yet:
 * one per config folder, or under `~/.claude` (which Claude Code creates on its first run) when
 * there is none. Long paths get the Node hash (see above): a Bun-built CLI may pick another name.
 */
export async function expectedProjectDirs(cwd: string, options: ConfigDirOptions = {}): Promise<string[]> {
  const configDirs = resolveConfigDirs(options);
  const name = encodeProjectDirName(await canonicalCwd(cwd));
  return (configDirs.length > 0 ? configDirs : [join(options.home ?? homedir(), '.claude')]).map((dir) => join(dir, 'projects', name));
}

function unique(values: string[]): string[] {
  return [...new Set(values)];
}

/** Claude Code's hash for over-long folder names when it runs under Node. */
export function nodeRuntimePathHash(text: string): string {
  let hash = 0;
  for (let index = 0; index < text.length; index++) hash = ((hash << 5) - hash + text.charCodeAt(index)) | 0;
  return Math.abs(hash).toString(36);
}

/** Every non-alphanumeric character becomes `-` (before any length cut). */
function sanitize(cwd: string): string {
  return cwd.replace(/[^a-zA-Z0-9]/g, '-');
}

/** The project folder name Claude Code (running under Node) gives `cwd`. */
export function encodeProjectDirName(cwd: string): string {
  const sanitized = sanitize(cwd);
  if (sanitized.length <= MAX_ENCODED_LENGTH) return sanitized;
  return `${sanitized.slice(0, MAX_ENCODED_LENGTH)}-${nodeRuntimePathHash(cwd)}`;
}

export interface ProjectDirCandidate {
  path: string;
  /** `exact`: the folder name is the encoding. `prefix`: a long path whose hash suffix we could not check. */
  match: 'exact' | 'prefix';
}

/**
 * Project folders that may belong to `cwd` in one config folder. Prefix matches must still be
 * confirmed by the `cwd` recorded in their sessions (see listing).
 */
export async function projectDirCandidates(configDir: string, cwd: string): Promise<ProjectDirCandidate[]> {
  const projects = join(configDir, 'projects');
  const exactName = encodeProjectDirName(cwd);
  let names: string[];
  try {
    names = await readdir(projects);
  } catch {
    return [];
  }
  const candidates: ProjectDirCandidate[] = names.includes(exactName) ? [{ path: join(projects, exactName), match: 'exact' }] : [];
  const sanitized = sanitize(cwd);
  if (sanitized.length > MAX_ENCODED_LENGTH) {
    const prefix = `${sanitized.slice(0, MAX_ENCODED_LENGTH)}-`;
    for (const name of names) if (name !== exactName && name.startsWith(prefix)) candidates.push({ path: join(projects, name), match: 'prefix' });
  }
  return candidates;
}

/** All project folders of a config folder. */
export async function allProjectDirs(configDir: string): Promise<string[]> {
  const projects = join(configDir, 'projects');
  try {
    const entries = await readdir(projects, { withFileTypes: true });
    return entries.filter((entry) => entry.isDirectory()).map((entry) => join(projects, entry.name));
  } catch {
    return [];
  }
}

/** `<project>/<sessionId>/subagents/agent-<id>.jsonl` is a subagent of session `<sessionId>`. */
export function subagentParent(path: string): string | undefined {
  const folder = dirname(path);
  return basename(folder) === 'subagents' && isSubagentTranscript(path) ? basename(dirname(folder)) : undefined;
}

/** Subagent transcripts are `agent-<id>.jsonl`, in `subagents/` or (before 2.1) beside the sessions. */
export function isSubagentTranscript(path: string): boolean {
  return basename(path).startsWith('agent-') && path.endsWith('.jsonl');
}
