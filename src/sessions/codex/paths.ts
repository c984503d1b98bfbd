// Where Codex keeps rollouts: `${CODEX_HOME:-~/.codex}/sessions/YYYY/MM/DD/rollout-<time>-<id>.jsonl`,
// one file per session, the date folders being the session's start in local time.
import { readdir } from 'node:fs/promises';
import { homedir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';

export interface CodexHomeOptions {
  /** Explicit CODEX_HOME folders (a setting); when non-empty they are used as given. */
  codexHomes?: readonly string[];
  env?: Readonly<Record<string, string | undefined>>;
  home?: string;
}

/** The CODEX_HOME folders to search: the explicit list, else `$CODEX_HOME`, else `~/.codex`. */
export function resolveCodexHomes(options: CodexHomeOptions = {}): string[] {
  const explicit = (options.codexHomes ?? []).map((dir) => dir.trim()).filter((dir) => dir !== '');
  if (explicit.length > 0) return [...new Set(explicit.map((dir) => resolve(dir)))];
  const fromEnv = (options.env ?? process.env).CODEX_HOME;
  if (fromEnv !== undefined && fromEnv.trim() !== '') return [resolve(fromEnv.trim())];
  return [join(options.home ?? homedir(), '.codex')];
}

export function sessionsDir(codexHome: string): string {
  return join(codexHome, 'sessions');
}

const ROLLOUT_FILE = /^rollout-.+\.jsonl$/;
/** A uuid at the end of the file name: Codex's session id. */
const SESSION_ID_SUFFIX = /([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.jsonl$/i;

export function isRolloutFile(path: string): boolean {
  return ROLLOUT_FILE.test(basename(path));
}

/** The session id a rollout's file name ends with, or null for a name Codex would not write. */
export function sessionIdFromPath(path: string): string | null {
  return SESSION_ID_SUFFIX.exec(basename(path))?.[1]?.toLowerCase() ?? null;
}

/**
 * The CODEX_HOME a rollout belongs to, when it sits in the dated layout
 * (`<home>/sessions/YYYY/MM/DD/rollout-*.jsonl`); null for a file elsewhere.
 */
export function codexHomeOf(rolloutPath: string): string | null {
  const day = dirname(rolloutPath);
  const month = dirname(day);
  const year = dirname(month);
  const sessions = dirname(year);
  const dated = /^\d{2}$/.test(basename(day)) && /^\d{2}$/.test(basename(month)) && /^\d{4}$/.test(basename(year));
  return dated && basename(sessions) === 'sessions' ? dirname(sessions) : null;
}

const pad = (value: number, width = 2): string => String(value).padStart(width, '0');

/** Where Codex would put a rollout of `id` started at `at`: the dated folder and its file name (local time). */
export function rolloutPathFor(codexHome: string, id: string, at: Date): string {
  const day = join(sessionsDir(codexHome), String(at.getFullYear()), pad(at.getMonth() + 1), pad(at.getDate()));
  const time = `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T${pad(at.getHours())}-${pad(at.getMinutes())}-${pad(at.getSeconds())}`;
  return join(day, `rollout-${time}-${id}.jsonl`);
}

/** Every rollout under `<codexHome>/sessions`, in the dated folders (newest folder first). */
export async function listRolloutFiles(codexHome: string): Promise<string[]> {
  const found: string[] = [];
  const names = async (folder: string): Promise<string[]> => (await readdir(folder).catch(() => [] as string[])).sort().reverse();
  const root = sessionsDir(codexHome);
  for (const year of (await names(root)).filter((name) => /^\d{4}$/.test(name))) {
    for (const month of (await names(join(root, year))).filter((name) => /^\d{2}$/.test(name))) {
      for (const day of (await names(join(root, year, month))).filter((name) => /^\d{2}$/.test(name))) {
        const folder = join(root, year, month, day);
        for (const name of await names(folder)) if (ROLLOUT_FILE.test(name)) found.push(join(folder, name));
      }
    }
  }
  return found;
}
