// Where each page's newest committed version lies in an SQLite write-ahead log, found by reading the
// log in chunks (never whole): the same checks as walFold.ts (header, salts, running checksum, commit
// frames, commit sizes the database and log can supply), but the result is a map from page number to
// the frame's offset, so pages are read from the log only when a query needs them.
import { readSync } from 'node:fs';
import { checksum, FRAME_HEADER, headerProblem, MAGIC_BIG, WAL_HEADER, walSalt } from './walFold';

export interface WalIndex {
  /** Page number → byte offset of its newest committed frame's page data in the log. */
  frames: Map<number, number>;
  /** Pages of the database after the last commit (null: no commit in the log). */
  pageCount: number | null;
  /** The log's page size (null: no usable log). */
  pageSize: number | null;
  /** Committed transactions (commit frames) applied. */
  commits: number;
  /** The log's salts ('' for none): a frame read later must carry them, or the log was restarted. */
  salt: string;
  /** Why the log, or its end, was left out, or null. */
  problem: string | null;
  /** Where the scan may go on from when the log grew (its last commit), or null: scan it anew. */
  resume: WalResume | null;
}

/**
 * The scan as of the log's last commit: a follower's next read goes on from here and reads only the
 * frames written since. Not from the last frame seen: frames after the last commit may be rewritten
 * (a rolled-back transaction's are overwritten by the next one), so they are read again.
 */
export interface WalResume {
  readonly salt: string;
  /** The database's page count the scan was made against (a checkpoint changes it: scan anew). */
  readonly dbPages: number;
  readonly at: number;
  readonly sums: readonly [number, number];
  readonly committed: ReadonlyMap<number, number>;
  readonly beyond: ReadonlySet<number>;
  readonly pageCount: number | null;
  readonly commits: number;
}

/** Frames read at once: enough to make each read worth a system call, small enough to bound memory. */
const CHUNK_FRAMES = 64;

const none = (salt: string, problem: string | null): WalIndex => ({
  frames: new Map(),
  pageCount: null,
  pageSize: null,
  commits: 0,
  salt,
  problem,
  resume: null,
});

/** Reads exactly `length` bytes at `position` (fewer only at the end of the file), into `into` when given (reused, not kept). */
export function readAt(fd: number, length: number, position: number, into?: Uint8Array): Uint8Array {
  const buffer = into !== undefined && into.length >= length ? into.subarray(0, length) : new Uint8Array(length);
  let filled = 0;
  while (filled < length) {
    const read = readSync(fd, buffer, filled, length - filled, position + filled);
    if (read === 0) break;
    filled += read;
  }
  return filled === length ? buffer : buffer.subarray(0, filled);
}

/**
 * Indexes the log open as `fd` (`size` bytes) against the database whose first bytes are `dbHeader`
 * and which holds `dbPages` pages. Frames after the last commit, of another generation (salts), or
 * breaking the checksum chain are ignored, as SQLite ignores them.
 */
export function indexWal(fd: number, size: number, dbHeader: Uint8Array, dbPages: number, from: WalResume | null = null): WalIndex {
  if (size < WAL_HEADER) return none('', null);
  const header = readAt(fd, WAL_HEADER, 0);
  const salt = walSalt(header);
  if (salt === '') return none('', 'the log does not start with an SQLite log header');
  const headerView = new DataView(header.buffer, header.byteOffset, header.byteLength);
  const big = headerView.getUint32(0, false) === MAGIC_BIG;
  const issue = headerProblem(headerView, dbHeader, big);
  if (issue !== null) return none(salt, `log left out: ${issue}`);
  const pageSize = headerView.getUint32(8, false);
  const salt1 = headerView.getUint32(16, false);
  const salt2 = headerView.getUint32(20, false);
  const frameSize = FRAME_HEADER + pageSize;
  // The same log (its salts), grown or as it was, against the same database: go on from its last commit.
  const resumed = from !== null && from.salt === salt && from.dbPages === dbPages && from.at <= size ? from : null;
  let sums: [number, number] = resumed !== null ? [resumed.sums[0], resumed.sums[1]] : checksum(headerView, 0, 24, big, [0, 0]);

  const pending = new Map<number, number>();
  // Copies: a store still open on the previous read keeps its own.
  const committed = new Map<number, number>(resumed?.committed ?? []);
  const beyond = new Set<number>(resumed?.beyond ?? []);
  let pageCount: number | null = resumed?.pageCount ?? null;
  let commits = resumed?.commits ?? 0;
  let problem: string | null = null;
  let at = resumed?.at ?? WAL_HEADER;
  let resume: WalResume = { salt, dbPages, at, sums, committed: new Map(committed), beyond: new Set(beyond), pageCount, commits };
  let committedAt: number | null = null;
  let committedSums: [number, number] | null = null;
  scan: while (at + frameSize <= size) {
    const count = Math.min(CHUNK_FRAMES, Math.floor((size - at) / frameSize));
    const chunk = readAt(fd, count * frameSize, at);
    const view = new DataView(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    for (let local = 0; local + frameSize <= chunk.length; local += frameSize, at += frameSize) {
      if (view.getUint32(local + 8, false) !== salt1 || view.getUint32(local + 12, false) !== salt2) break scan;
      sums = checksum(view, local, local + 8, big, sums);
      sums = checksum(view, local + FRAME_HEADER, local + frameSize, big, sums);
      if (sums[0] !== view.getUint32(local + 16, false) || sums[1] !== view.getUint32(local + 20, false)) break scan;
      const page = view.getUint32(local, false);
      if (page === 0) break scan;
      pending.set(page, at + FRAME_HEADER);
      if (page > dbPages) beyond.add(page);
      const commitSize = view.getUint32(local + 4, false);
      if (commitSize === 0) continue;
      if (commitSize > dbPages + beyond.size) {
        problem = `log frame at byte ${at} claims a database of ${commitSize} pages, more than the database (${dbPages}) and the log (${beyond.size} more) hold: the log is read up to the commit before it`;
        break scan;
      }
      for (const [number, offset] of pending) committed.set(number, offset);
      pending.clear();
      pageCount = commitSize;
      commits++;
      committedAt = at + frameSize;
      committedSums = sums;
    }
    if (chunk.length < count * frameSize) break;
  }
  if (committedAt !== null && committedSums !== null) {
    const beyondCommitted = new Set([...beyond].filter((page) => committed.has(page)));
    resume = { salt, dbPages, at: committedAt, sums: committedSums, committed: new Map(committed), beyond: beyondCommitted, pageCount, commits };
  }
  if (commits === 0) return { ...none(salt, problem), pageSize, resume };
  // Pages past the committed size (a transaction that shrank the database) no longer exist.
  for (const page of committed.keys()) if (pageCount !== null && page > pageCount) committed.delete(page);
  return { frames: committed, pageCount, pageSize, commits, salt, problem, resume };
}
