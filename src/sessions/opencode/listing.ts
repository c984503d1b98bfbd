// OpenCode's sessions as the picker shows them: rows of the `session` table of each database, a
// workspace's being those whose `directory` is its folder; a session with a `parent_id` (one the
// `task` tool started) is a subagent of its parent.
import { dirname, resolve } from 'node:path';
import { fail, ok } from '../result';
import type { AgentId, Result, SessionInfo } from '../types';
import { OPENCODE_ID, parseSessionPath, resolveDatabases, sessionPath, type OpencodeWhere } from './paths';
import { num, SESSION_COLUMNS, sessionRowOf } from './rows';
import type { Row } from './snapshot';
import { readForkNotes } from './forks';
import { withSnapshot, type Snapshot } from './snapshot';

export const OPENCODE_AGENT: AgentId = OPENCODE_ID;

function infoOf(db: string, row: Row, sizeBytes: number): SessionInfo | null {
  const session = sessionRowOf(row);
  if (session === null) return null;
  return {
    id: session.id,
    agent: OPENCODE_AGENT,
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

/** Sessions of one snapshot, newest activity first; of one folder when `directory` is given. */
export function sessionsIn(db: string, snapshot: Snapshot, filter: { directory?: string; id?: string; parentId?: string } = {}): Result<SessionInfo[]> {
  const conditions = [
    ['s.directory = ?', filter.directory],
    ['s.id = ?', filter.id],
    ['s.parent_id = ?', filter.parentId],
  ].filter((condition): condition is [string, string] => condition[1] !== undefined);
  const where = conditions.map(([sql]) => sql);
  const params = conditions.map(([, value]) => value);
  const columns = SESSION_COLUMNS.split(', ').map((column) => `s.${column}`).join(', ');
  // What the session's rows weigh: the nearest thing to a transcript's file size.
  const rows = snapshot.rows(
    `SELECT ${columns}, (SELECT coalesce(sum(length(p.data)), 0) FROM part p WHERE p.session_id = s.id) AS size FROM session s ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY s.time_updated DESC, s.id DESC`,
    params,
  );
  if (!rows.ok) return rows;
  return ok(rows.value.flatMap((row) => infoOf(db, row, num(row.size)) ?? []));
}

/** The sessions with what the fork notes beside their database say (forks.ts). */
export async function withForkNotes(db: string, sessions: SessionInfo[]): Promise<SessionInfo[]> {
  const notes = await readForkNotes(db);
  return notes.size === 0 ? sessions : sessions.map((session) => (notes.has(session.id) ? { ...session, forkOf: notes.get(session.id) } : session));
}

/** Every session of the databases (a missing database is no OpenCode there, not an error). */
export async function listOpencodeSessions(where: OpencodeWhere, workspacePath?: string): Promise<Result<SessionInfo[]>> {
  const all: SessionInfo[] = [];
  for (const db of resolveDatabases(where)) {
    const listed = await withSnapshot(db, (snapshot) => sessionsIn(db, snapshot, workspacePath === undefined ? {} : { directory: resolve(workspacePath) }));
    if (listed.ok) all.push(...(await withForkNotes(db, listed.value)));
    else if (listed.error.code !== 'not-found') return listed;
  }
  return ok(all.sort((a, b) => b.lastActivityMs - a.lastActivityMs));
}

export async function findOpencodeWorkspaceSession(workspacePath: string, where: OpencodeWhere): Promise<Result<SessionInfo | null>> {
  const listed = await listOpencodeSessions(where, workspacePath);
  if (!listed.ok) return listed;
  return ok(listed.value.find((session) => !session.isSidechain) ?? null);
}

export async function readOpencodeSessionInfo(path: string): Promise<Result<SessionInfo>> {
  const parsed = parseSessionPath(path);
  if (parsed === null) return fail('invalid-input', `Not an OpenCode session (expected <database>#ses_…): ${path}`, path);
  const read = await withSnapshot(parsed.db, (snapshot) => {
    const found = sessionsIn(parsed.db, snapshot, { id: parsed.sessionId });
    if (!found.ok) return found;
    const [session] = found.value;
    return session === undefined ? fail<SessionInfo>('not-found', `No session ${parsed.sessionId} in ${parsed.db}`, path) : ok(session);
  });
  if (!read.ok) return read;
  const [session] = await withForkNotes(parsed.db, [read.value]);
  return session === undefined ? read : ok(session);
}
