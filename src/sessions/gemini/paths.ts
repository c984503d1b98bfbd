// Where the Gemini CLI keeps chats (0.61, packages/core/src/config/storage.ts): under its folder
// `$GEMINI_CLI_HOME/.gemini` (default `~/.gemini`), `projects.json` maps each working directory to a
// short project name and `tmp/<name>/chats/session-<YYYY-MM-DDTHH-MM>-<uuid8>.jsonl` holds its
// chats; `tmp/<name>/.project_root` names the directory back. Before 0.3x the folder was named by
// the SHA-256 of the directory (`tmp/<sha256>/chats/session-*.json`); the CLI migrates those, but
// copies and old machines keep them. A subagent's chat sits in `chats/<parent session id>/<id>.jsonl`.
import { readdir, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { READ_CAPS, readRegularText, withoutBom } from '../common/regularFile';
import { sha256Hex } from '../common/crypto';
import { obj } from './records';

/** The environment variable the CLI reads for the folder that holds `.gemini`. */
export const GEMINI_HOME_ENV = 'GEMINI_CLI_HOME';
const GEMINI_DIR = '.gemini';

export interface GeminiHomeOptions {
  /** Explicit folders (a setting or --gemini-home): each is a GEMINI_CLI_HOME or a `.gemini` folder itself. */
  geminiHomes?: readonly string[];
  env?: Readonly<Record<string, string | undefined>>;
  home?: string;
}

/**
 * The `.gemini` folders to search: each explicit folder (its `.gemini` inside, unless it is one or
 * already holds `tmp/` or `projects.json`), else `$GEMINI_CLI_HOME/.gemini`, else `~/.gemini`.
 */
export async function resolveGeminiDirs(options: GeminiHomeOptions = {}): Promise<string[]> {
  const explicit = (options.geminiHomes ?? []).map((dir) => dir.trim()).filter((dir) => dir !== '');
  if (explicit.length > 0) return [...new Set(await Promise.all(explicit.map((dir) => geminiDirIn(resolve(dir)))))];
  const fromEnv = (options.env ?? process.env)[GEMINI_HOME_ENV]?.trim();
  return [join(fromEnv ? resolve(fromEnv) : (options.home ?? homedir()), GEMINI_DIR)];
}

async function geminiDirIn(dir: string): Promise<string> {
  if (basename(dir) === GEMINI_DIR) return dir;
  const holds = async (name: string): Promise<boolean> => (await stat(join(dir, name)).catch(() => null)) !== null;
  if (await holds(GEMINI_DIR)) return join(dir, GEMINI_DIR);
  return (await holds('tmp')) || (await holds('projects.json')) ? dir : join(dir, GEMINI_DIR);
}

/** `session-<time>-<uuid8>.jsonl`, or `.json` from older CLIs. */
const CHAT_FILE = /^session-.+\.jsonl?$/;

export function isChatFileName(name: string): boolean {
  return CHAT_FILE.test(name);
}

/** The 8 hex digits a chat's file name ends with: the start of its session id. */
export function shortIdOf(path: string): string | null {
  return /-([0-9a-f]{8})\.jsonl?$/i.exec(basename(path))?.[1]?.toLowerCase() ?? null;
}

/** Where a chat file sits in the layout: its `.gemini` folder and project folder, or null elsewhere. */
export interface ChatPlace {
  geminiDir: string;
  projectDir: string;
  /** Set for a subagent's chat: the folder under `chats/` is its parent's session id. */
  parentSessionId?: string;
}

export function chatPlaceOf(path: string): ChatPlace | null {
  let chats = dirname(path);
  let parentSessionId: string | undefined;
  if (basename(chats) !== 'chats' && basename(dirname(chats)) === 'chats') {
    parentSessionId = basename(chats);
    chats = dirname(chats);
  }
  if (basename(chats) !== 'chats') return null;
  const projectDir = dirname(chats);
  const tmp = dirname(projectDir);
  if (basename(tmp) !== 'tmp') return null;
  return { geminiDir: dirname(tmp), projectDir, ...(parentSessionId !== undefined ? { parentSessionId } : {}) };
}

/** projects.json: working directory → project name; empty when missing or not the CLI's shape. */
export async function readProjects(geminiDir: string): Promise<Map<string, string>> {
  const text = await readRegularText(join(geminiDir, 'projects.json'), READ_CAPS.registry);
  const projects = new Map<string, string>();
  if (!text.ok || text.value === null) return projects;
  try {
    const entries = obj(obj(JSON.parse(withoutBom(text.value)) as unknown)?.projects) ?? {};
    for (const [cwd, name] of Object.entries(entries))
      if (typeof name === 'string' && name !== '' && !name.includes('/') && !name.includes('\\')) projects.set(cwd, name);
  } catch {
    // Damaged: the CLI resets it too; we find the folders by listing tmp/.
  }
  return projects;
}

/** The directory a project folder belongs to: its `.project_root`, else projects.json, else null. */
export async function projectRootOf(projectDir: string, projects?: Map<string, string>): Promise<string | null> {
  const marker = await readRegularText(join(projectDir, '.project_root'), READ_CAPS.marker);
  const root = marker.ok ? marker.value?.trim() : undefined;
  if (root) return root;
  const name = basename(projectDir);
  for (const [cwd, slug] of projects ?? (await readProjects(dirname(dirname(projectDir))))) if (slug === name) return cwd;
  return null;
}

/** The legacy folder name of a directory: the SHA-256 of its path. */
export function projectHashOf(cwd: string): string {
  return sha256Hex(cwd);
}

/** The project folders a working directory may have in one `.gemini` folder (existing or not). */
export async function projectDirsFor(geminiDir: string, cwds: readonly string[]): Promise<string[]> {
  const projects = await readProjects(geminiDir);
  const names = cwds.flatMap((cwd) => [projects.get(cwd), projectHashOf(cwd)].flatMap((name) => (name === undefined ? [] : [name])));
  return [...new Set(names)].map((name) => join(geminiDir, 'tmp', name));
}

/** Every project folder under `<geminiDir>/tmp` (the CLI also keeps `bin/` there: it has no chats). */
export async function listProjectDirs(geminiDir: string): Promise<string[]> {
  const names = await readdir(join(geminiDir, 'tmp')).catch(() => [] as string[]);
  return names.sort().map((name) => join(geminiDir, 'tmp', name));
}

/** The chat files of one project folder (main sessions only; subagents' are in subfolders). */
export async function listChatFiles(projectDir: string): Promise<string[]> {
  const names = await readdir(join(projectDir, 'chats')).catch(() => [] as string[]);
  return names
    .filter(isChatFileName)
    .sort()
    .reverse()
    .map((name) => join(projectDir, 'chats', name));
}

/** A subagent's chats: `chats/<session id>/*.jsonl`. */
export async function listSubagentFiles(projectDir: string, sessionId: string): Promise<string[]> {
  const folder = join(projectDir, 'chats', sessionId);
  const names = await readdir(folder).catch(() => [] as string[]);
  return names
    .filter((name) => /\.jsonl?$/.test(name))
    .sort()
    .map((name) => join(folder, name));
}
