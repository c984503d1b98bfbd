// An OpenCode-family agent's sessions as the picker shows them: rows of the `session` table of each database, a
// workspace's being those whose `directory` is its folder; a session with a `parent_id` (one the
// `task` tool started) is a subagent of its parent.
import { basename, dirname, resolve } from 'node:path';
import { fail, ok } from '../../result';
import type { Result, SessionInfo } from '../../types';
import type { OpencodeFlavour } from './flavour';
import { parseSessionPath, resolveDatabases, sessionPath, type OpencodeWhere } from './paths';
import { sessionRowOf } from './rows';
import { storageFileOf, storageRefusal } from './storageFile';
import type { StoreRow as Row } from '../opencodeStore';
import { readForkNotes } from './forks';
import { withStore, type OpencodeStore, type SessionFilter } from '../opencodeStore';

function infoOf(flavour: OpencodeFlavour, db: string, row: Row, sizeBytes: number): SessionInfo | null {
  const session = sessionRowOf(row);
  if (session === null) return null;
  return {
    id: session.id,
    agent: flavour.id,
    path: sessionPath(db, session.id),
    location: `session ${session.id} in ${db}`,
    projectDir: dirname(db),
    cwd: session.directory === '' ? null : session.directory,
    title: session.title,
    model: session.model,
    lastActivityMs: session.timeUpdated,
    lastRecordAtMs: session.timeUpdated || null,
    sizeBytes,
    isSidechain: session.parentId !== null,
    ...(session.parentId !== null ? { parentSessionId: session.parentId } : {}),
  };
}

/** Sessions of one read of the database, newest activity first; of one folder, id or parent when given. */
export function sessionsIn(flavour: OpencodeFlavour, db: string, store: OpencodeStore, filter: SessionFilter = {}): Result<SessionInfo[]> {
  // Another member of the family's database has no session of this agent's.
  if (!flavour.claims({ fileName: basename(db), hasTable: (name) => store.hasTable(name) })) return ok([]);
  const rows = store.sessions(filter);
  if (!rows.ok) return rows;
  // What the session's rows weigh: the nearest thing to a transcript's file size.
  const sizes = store.sessionBytes(rows.value.flatMap((row) => (typeof row.id === 'string' ? [row.id] : [])));
  if (!sizes.ok) return sizes;
  return ok(rows.value.flatMap((row) => infoOf(flavour, db, row, typeof row.id === 'string' ? (sizes.value.get(row.id) ?? 0) : 0) ?? []));
}

/** The sessions with what the fork notes beside their database say (forks.ts). */
export async function withForkNotes(db: string, sessions: SessionInfo[]): Promise<SessionInfo[]> {
  const notes = await readForkNotes(db);
  return notes.size === 0 ? sessions : sessions.map((session) => (notes.has(session.id) ? { ...session, forkOf: notes.get(session.id) } : session));
}

/** Every session of the databases (a missing database is no such agent there, not an error). */
export async function listOpencodeSessions(flavour: OpencodeFlavour, where: OpencodeWhere, workspacePath?: string): Promise<Result<SessionInfo[]>> {
  const all: SessionInfo[] = [];
  for (const db of resolveDatabases(flavour, where)) {
    const listed = await withStore(db, (store) => sessionsIn(flavour, db, store, workspacePath === undefined ? {} : { directory: resolve(workspacePath) }));
    if (listed.ok) all.push(...(await withForkNotes(db, listed.value)));
    else if (listed.error.code !== 'not-found') return listed;
  }
  return ok(all.sort((a, b) => b.lastActivityMs - a.lastActivityMs));
}

export async function findOpencodeWorkspaceSession(flavour: OpencodeFlavour, workspacePath: string, where: OpencodeWhere): Promise<Result<SessionInfo | null>> {
  const listed = await listOpencodeSessions(flavour, where, workspacePath);
  if (!listed.ok) return listed;
  return ok(listed.value.find((session) => !session.isSidechain) ?? null);
}

export async function readOpencodeSessionInfo(flavour: OpencodeFlavour, path: string): Promise<Result<SessionInfo>> {
  const parsed = parseSessionPath(path);
  if (parsed === null) {
    if ((await storageFileOf(path)) !== null) return fail('invalid-input', storageRefusal(flavour, path), path);
    return fail('invalid-input', `Not a session of ${flavour.name} (expected <database>#ses_…): ${path}`, path);
  }
  const read = await withStore(parsed.db, (store) => {
    const found = sessionsIn(flavour, parsed.db, store, { id: parsed.sessionId });
    if (!found.ok) return found;
    const [session] = found.value;
    return session === undefined ? fail<SessionInfo>('not-found', `No session ${parsed.sessionId} in ${parsed.db}`, path) : ok(session);
  });
  if (!read.ok) return read;
  const [session] = await withForkNotes(parsed.db, [read.value]);
  return session === undefined ? read : ok(session);
}
