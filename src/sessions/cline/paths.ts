// Where Cline keeps its sessions, in its two layouts:
// - the SDK's (the `cline` CLI and the v4 extension): `<data>/sessions/<id>/<id>.messages.json`
//   beside its manifest `<id>.json`, `<data>` being CLINE_DATA_DIR, else ~/.cline/data;
// - the VS Code extension's task folders: `<globalStorage>/saoudrizwan.claude-dev/tasks/<id>/`
//   `api_conversation_history.json` beside `ui_messages.json`, globalStorage being VS Code's
//   (or VS Code Insiders') per-user folder on each system.
// A session's path is its messages file; the layout is told by the file's name and place alone.
import { homedir } from 'node:os';
import { basename, dirname, join, posix, win32 } from 'node:path';

export const CLINE_ID = 'cline';
export const CLINE_DATA_ENV = 'CLINE_DATA_DIR';
export const EXTENSION_ID = 'saoudrizwan.claude-dev';
export const LEGACY_HISTORY = 'api_conversation_history.json';
export const LEGACY_UI = 'ui_messages.json';

export type Env = Readonly<Record<string, string | undefined>>;

export type ClinePlace =
  | { layout: 'sdk'; id: string; folder: string; manifest: string; messages: string; dataDir: string; parentId?: string }
  | { layout: 'legacy'; id: string; folder: string; history: string; ui: string; storage: string };

/** A session id as Cline writes them (`1795827836607_ff0sl`, a task's `1769053680585`): no path pieces. */
const SAFE_ID = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$/;
export const SUBAGENT_FILE = /^(agent_[A-Za-z0-9_-]{1,100})\.messages\.json$/;

/** The layout and files of a session named by its messages file, or null when the name says it is none. */
export function placeOf(path: string): ClinePlace | null {
  const folder = dirname(path);
  const id = basename(folder);
  if (!SAFE_ID.test(id)) return null;
  const name = basename(path);
  if (name === `${id}.messages.json`)
    return { layout: 'sdk', id, folder, manifest: join(folder, `${id}.json`), messages: path, dataDir: dirname(dirname(folder)) };
  // A subagent's messages live in its parent's folder, `agent_<agent id>.messages.json`, under the
  // id `<parent>__agent_<agent id>` (its own file's `sessionId`); the parent's manifest says where it ran.
  const agent = SUBAGENT_FILE.exec(name)?.[1];
  if (agent !== undefined)
    return {
      layout: 'sdk',
      id: `${id}__${agent}`,
      folder,
      manifest: join(folder, `${id}.json`),
      messages: path,
      dataDir: dirname(dirname(folder)),
      parentId: id,
    };
  // A task folder is read where it lies: in the extension's `tasks/`, or copied out (people export
  // and publish task folders); its storage is the folder above `tasks/`, else the one above it.
  if (name === LEGACY_HISTORY)
    return {
      layout: 'legacy',
      id,
      folder,
      history: path,
      ui: join(folder, LEGACY_UI),
      storage: basename(dirname(folder)) === 'tasks' ? dirname(dirname(folder)) : dirname(folder),
    };
  return null;
}

export const sdkMessagesPath = (dataDir: string, id: string): string => join(dataDir, 'sessions', id, `${id}.messages.json`);

/** The SDK's data folder: CLINE_DATA_DIR, else ~/.cline/data. */
export function defaultDataDir(env: Env): string {
  return env[CLINE_DATA_ENV] || join(env.HOME || env.USERPROFILE || homedir(), '.cline', 'data');
}

/**
 * The extension's globalStorage folders of VS Code and VS Code Insiders (and of their remote and
 * open builds), on this system: ~/.config/<app>/User on Linux, ~/Library/Application Support/<app>/User
 * on macOS, %APPDATA%\<app>\User on Windows.
 */
export function defaultGlobalStorages(env: Env, platform: NodeJS.Platform = process.platform): string[] {
  const home = env.HOME || env.USERPROFILE || homedir();
  const apps = ['Code', 'Code - Insiders', 'VSCodium'];
  // The system's own separators, also when asked about another system.
  const join = platform === 'win32' ? win32.join : posix.join;
  const userRoots =
    platform === 'darwin'
      ? apps.map((app) => join(home, 'Library', 'Application Support', app, 'User'))
      : platform === 'win32'
        ? apps.map((app) => join(env.APPDATA || join(home, 'AppData', 'Roaming'), app, 'User'))
        : [
            ...apps.map((app) => join(env.XDG_CONFIG_HOME || join(home, '.config'), app, 'User')),
            join(home, '.vscode-server', 'data', 'User'),
            join(home, '.vscode-server-insiders', 'data', 'User'),
          ];
  return userRoots.map((root) => join(root, 'globalStorage', EXTENSION_ID));
}

export interface ClineWhere {
  /** Folders the person named: an SDK data folder (with `sessions/`) or the extension's storage (with `tasks/`). */
  homes: readonly string[];
  env?: Env;
}

/** The folders to look in: those named, else the defaults of both layouts. */
export function resolveHomes(where: ClineWhere): string[] {
  if (where.homes.length > 0) return [...where.homes];
  const env = where.env ?? process.env;
  return [defaultDataDir(env), ...defaultGlobalStorages(env)];
}

/**
 * What continues a session: `cline --id <id>` for the SDK's; the extension has no command for a
 * task, and lists a task folder it did not write only after its "Reconstruct Task History" command
 * (cline.reconstructTaskHistory) added it to its index. A shell comment, harmless if run.
 */
export function resumeCommandOf(path: string, id: string): string {
  return placeOf(path)?.layout === 'legacy'
    ? `# In VS Code: run "Cline: Reconstruct Task History", then open task ${id} from Cline's History`
    : `cline --id ${id}`;
}
