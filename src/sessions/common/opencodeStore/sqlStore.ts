// The store over a whole-file snapshot (snapshot.ts): simple and exact, but it holds the database in memory.
import { ok } from '../../result';
import type { Result } from '../../types';
import type { Snapshot } from './snapshot';
import { matches, newestFirst, type OpencodeStore, type SessionFilter, type StoreRow } from './store';

export function storeOverSnapshot(path: string, snapshot: Snapshot): OpencodeStore {
  return {
    path,
    walFrames: snapshot.walFrames,
    walProblem: snapshot.walProblem,
    sessions(filter: SessionFilter = {}): Result<StoreRow[]> {
      const rows = snapshot.rows('SELECT * FROM session');
      return rows.ok ? ok(rows.value.filter((row) => matches(row, filter)).sort(newestFirst)) : rows;
    },
    sessionBytes(sessionIds: readonly string[]): Result<Map<string, number>> {
      const wanted = new Set(sessionIds);
      const rows = snapshot.rows('SELECT session_id, sum(length(data)) AS size FROM part GROUP BY session_id');
      if (!rows.ok) return rows;
      const sizes = new Map<string, number>(sessionIds.map((id) => [id, 0]));
      for (const row of rows.value) if (typeof row.session_id === 'string' && wanted.has(row.session_id)) sizes.set(row.session_id, Number(row.size ?? 0));
      return ok(sizes);
    },
    messages: (sessionId: string) => snapshot.rows('SELECT id, session_id, time_created, time_updated, data FROM message WHERE session_id = ? ORDER BY id', [sessionId]),
    parts: (sessionId: string) => snapshot.rows('SELECT id, message_id, session_id, time_created, time_updated, data FROM part WHERE session_id = ? ORDER BY id', [sessionId]),
    close: () => snapshot.close(),
  };
}
