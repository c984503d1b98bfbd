// The rows of an OpenCode-format database (OpenCode's `opencode.db`, its fork Kilo's `kilo.db`) that
// a session reader needs, behind a few typed queries rather than SQL: the reader behind them can
// change (whole-file snapshot, page reader) without its callers changing. No agent name here: the
// tables (`session`, `message`, `part`) are the format's, shared by OpenCode and its forks.
import type { Result } from '../../types';

/** One row, columns by name as the database has them (an older database lacks later columns). */
export type StoreRow = Record<string, unknown>;

/** Which `session` rows: every condition given must hold. */
export interface SessionFilter {
  id?: string;
  directory?: string;
  parentId?: string;
}

export interface OpencodeStore {
  /** The database file read. */
  readonly path: string;
  /** `session` rows (every column the database has: `model` only from OpenCode 1.5 on), newest `time_updated` first, then id descending. */
  sessions(filter?: SessionFilter): Result<StoreRow[]>;
  /** What each session's rows weigh: the summed length of its `part.data` (0 for a session without parts). */
  sessionBytes(sessionIds: readonly string[]): Result<Map<string, number>>;
  /** A session's `message` rows (id, session_id, time_created, time_updated, data), by id ascending. */
  messages(sessionId: string): Result<StoreRow[]>;
  /** A session's `part` rows (id, message_id, session_id, time_created, time_updated, data), by id ascending. */
  parts(sessionId: string): Result<StoreRow[]>;
  /** Whether the database has a table of this name (a fork's own tables tell its database from OpenCode's). */
  hasTable(name: string): boolean;
  /** Committed log frames seen (0: none, or no log). */
  readonly walFrames: number;
  /** Why the log, or its end, was left out (a header or frame that lies about its sizes), naming the log; null: it was not. */
  readonly walProblem: string | null;
  close(): void;
}

/** Sessions first by newest update, then by id descending (the order OpenCode's own list shows). */
export function newestFirst(a: StoreRow, b: StoreRow): number {
  const at = (row: StoreRow): number =>
    typeof row.time_updated === 'number' ? row.time_updated : typeof row.time_updated === 'bigint' ? Number(row.time_updated) : 0;
  const byTime = at(b) - at(a);
  if (byTime !== 0) return byTime;
  return byText(String(b.id ?? ''), String(a.id ?? ''));
}

/** SQLite's BINARY order for the ASCII ids OpenCode uses (code units, not locale). */
export const byText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Whether a `session` row passes `filter`. */
export function matches(row: StoreRow, filter: SessionFilter): boolean {
  return (
    (filter.id === undefined || row.id === filter.id) &&
    (filter.directory === undefined || row.directory === filter.directory) &&
    (filter.parentId === undefined || row.parent_id === filter.parentId)
  );
}
