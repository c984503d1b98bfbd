// Where an agent of the OpenCode family keeps its sessions, and how one session is named to the host.
// OpenCode (since 1.2) keeps every session of every project in one SQLite database: OPENCODE_DB, else
// `$XDG_DATA_HOME/opencode/opencode.db`; Kilo the same under its names (KILO_DB, `kilo/kilo.db`).
// The host keys a session by a path; ours is the database's path and the session id, `<db>#<session id>`.
import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import type { OpencodeFlavour } from './flavour';

export interface OpencodeWhere {
  /** Databases named by the person (the `opencode-db` option / setting); empty: the defaults. */
  databases?: readonly string[];
  env?: Readonly<Record<string, string | undefined>>;
}

/** The databases to read: the ones named, else the flavour's variable (OPENCODE_DB), else the one under the XDG data folder. */
export function resolveDatabases(flavour: OpencodeFlavour, where: OpencodeWhere = {}): string[] {
  const named = (where.databases ?? []).filter((path) => path !== '');
  if (named.length > 0) return [...new Set(named.map((path) => resolve(path)))];
  const env = where.env ?? process.env;
  const dataHome = env.XDG_DATA_HOME !== undefined && env.XDG_DATA_HOME !== '' ? env.XDG_DATA_HOME : join(env.HOME ?? homedir(), '.local', 'share');
  const dataFolder = join(dataHome, flavour.folder);
  const fromEnv = env[flavour.dbEnv];
  if (fromEnv !== undefined && fromEnv !== '') return [flavour.relativeDbUnderData && !isAbsolute(fromEnv) ? join(dataFolder, fromEnv) : resolve(fromEnv)];
  return [join(dataFolder, flavour.dbFile)];
}

/** OpenCode's session ids: `ses_` and base62 (checked so a stray `#` in a file name is not one). */
const SESSION_ID = /^ses_[0-9A-Za-z]{8,64}$/;

export interface SessionPath {
  db: string;
  sessionId: string;
}

export function sessionPath(db: string, sessionId: string): string {
  return `${db}#${sessionId}`;
}

/** The database and session of a path of ours, or null for any other path. */
export function parseSessionPath(path: string): SessionPath | null {
  const at = path.lastIndexOf('#');
  if (at <= 0) return null;
  const sessionId = path.slice(at + 1);
  return SESSION_ID.test(sessionId) ? { db: path.slice(0, at), sessionId } : null;
}
