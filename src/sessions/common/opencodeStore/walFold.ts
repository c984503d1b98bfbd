// Folds an SQLite write-ahead log into a copy of its database file, as SQLite itself does when it
// reads: the newest committed version of each page wins. OpenCode keeps its newest rows in
// `opencode.db-wal` for a while; a reader of `opencode.db` alone is behind. We never open the
// agent's files with SQLite (no locks, no shared-memory index, nothing written): we read their bytes,
// fold them here, and hand the image to the in-memory SQLite of snapshot.ts.
// Format: https://www.sqlite.org/fileformat2.html#the_write_ahead_log (facts only).

export const WAL_HEADER = 32;
export const FRAME_HEADER = 24;
const MAGIC_LITTLE = 0x377f0682;
export const MAGIC_BIG = 0x377f0683;
/** The only log format version there is (3.7.0). */
const WAL_VERSION = 3007000;

export interface FoldedImage {
  /** The database as a reader sees it after the last commit in the log. */
  image: Uint8Array;
  /** Committed frames applied (0: the log was empty, stale or absent). */
  frames: number;
  /** The log's salts: a checkpoint that restarts the log changes them (snapshot.ts compares them). */
  salt: string;
  /** Why the log, or its frames from some point on, were left out though they were there (null: nothing left out but what SQLite itself ignores). */
  problem: string | null;
}

/** SQLite's running checksum over 32-bit words, in the byte order the log's magic says. */
export function checksum(bytes: DataView, from: number, to: number, big: boolean, start: [number, number]): [number, number] {
  let [s0, s1] = start;
  for (let at = from; at < to; at += 8) {
    s0 = (s0 + bytes.getUint32(at, !big) + s1) >>> 0;
    s1 = (s1 + bytes.getUint32(at + 4, !big) + s0) >>> 0;
  }
  return [s0, s1];
}

/** The log's salts, or '' when it is no valid log (absent, torn header, other magic). */
export function walSalt(wal: Uint8Array | null): string {
  if (wal === null || wal.length < WAL_HEADER) return '';
  const view = new DataView(wal.buffer, wal.byteOffset, wal.byteLength);
  const magic = view.getUint32(0, false);
  if (magic !== MAGIC_LITTLE && magic !== MAGIC_BIG) return '';
  return `${view.getUint32(16, false)}:${view.getUint32(20, false)}`;
}

/** A page size SQLite can have: a power of two from 512 to 65536. */
const validPageSize = (size: number): boolean => size >= 512 && size <= 65536 && (size & (size - 1)) === 0;

/** The database header's page size (bytes 16–17; 1 stands for 65536), or null for no valid header. */
export function databasePageSize(db: Uint8Array): number | null {
  if (db.length < 100) return null;
  const stored = ((db[16] ?? 0) << 8) | (db[17] ?? 0);
  const size = stored === 1 ? 65536 : stored;
  return validPageSize(size) ? size : null;
}

/** Why the log's header cannot be trusted against `db` (its first 100 bytes suffice; shorter: no page size to match), or null when it can. */
export function headerProblem(view: DataView, db: Uint8Array, big: boolean): string | null {
  if (view.getUint32(4, false) !== WAL_VERSION) return `unknown log format version ${view.getUint32(4, false)}`;
  const pageSize = view.getUint32(8, false);
  if (!validPageSize(pageSize)) return `page size ${pageSize} is not a power of two from 512 to 65536`;
  const dbPageSize = databasePageSize(db);
  if (dbPageSize !== null && dbPageSize !== pageSize) return `page size ${pageSize} differs from the database's ${dbPageSize}`;
  const sums = checksum(view, 0, 24, big, [0, 0]);
  if (sums[0] !== view.getUint32(24, false) || sums[1] !== view.getUint32(28, false)) return 'header checksum does not match';
  return null;
}

/**
 * `db` with every committed frame of `wal` applied. Frames after the last commit (a transaction
 * still being written), frames of an earlier log generation (other salts) and frames whose checksum
 * breaks the chain are ignored, as SQLite ignores them. Every field is checked before it is used:
 * a header SQLite would refuse leaves the log out, and a commit frame claiming more pages than the
 * database and the log's own frames can supply ends the fold there (the image is never sized by a
 * claim, only by bytes that exist). The result's header says "rollback journal" so the in-memory
 * SQLite does not look for a log of its own.
 */
export function foldWal(db: Uint8Array, wal: Uint8Array | null): FoldedImage {
  const salt = walSalt(wal);
  const unchanged = (problem: string | null): FoldedImage => ({ image: asRollback(db.slice()), frames: 0, salt, problem });
  if (wal === null || wal.length === 0) return unchanged(null);
  if (salt === '') return unchanged(wal.length < WAL_HEADER ? null : 'the log does not start with an SQLite log header');
  const view = new DataView(wal.buffer, wal.byteOffset, wal.byteLength);
  const big = view.getUint32(0, false) === MAGIC_BIG;
  const headerIssue = headerProblem(view, db, big);
  if (headerIssue !== null) return unchanged(`log left out: ${headerIssue}`);
  const pageSize = view.getUint32(8, false);
  const salt1 = view.getUint32(16, false);
  const salt2 = view.getUint32(20, false);
  let sums = checksum(view, 0, 24, big, [0, 0]);
  const dbPages = Math.floor(db.length / pageSize);

  // Pages of the transactions read so far; only made final at each commit frame.
  const pending = new Map<number, number>();
  const committed = new Map<number, number>();
  // Distinct pages past the database file's end that frames supply: all a commit can grow it by.
  const beyond = new Set<number>();
  let pagesAfterCommit = 0;
  let frames = 0;
  let problem: string | null = null;
  for (let at = WAL_HEADER; at + FRAME_HEADER + pageSize <= wal.length; at += FRAME_HEADER + pageSize) {
    if (view.getUint32(at + 8, false) !== salt1 || view.getUint32(at + 12, false) !== salt2) break;
    sums = checksum(view, at, at + 8, big, sums);
    sums = checksum(view, at + FRAME_HEADER, at + FRAME_HEADER + pageSize, big, sums);
    if (sums[0] !== view.getUint32(at + 16, false) || sums[1] !== view.getUint32(at + 20, false)) break;
    const page = view.getUint32(at, false);
    if (page === 0) break;
    pending.set(page, at + FRAME_HEADER);
    if (page > dbPages) beyond.add(page);
    const commitSize = view.getUint32(at + 4, false);
    if (commitSize === 0) continue;
    if (commitSize > dbPages + beyond.size) {
      problem = `log frame at byte ${at} claims a database of ${commitSize} pages, more than the database (${dbPages}) and the log (${beyond.size} more) hold: the log is read up to the commit before it`;
      break;
    }
    for (const [number, offset] of pending) committed.set(number, offset);
    pending.clear();
    pagesAfterCommit = commitSize;
    frames++;
  }
  if (frames === 0) return unchanged(problem);

  const image = new Uint8Array(pagesAfterCommit * pageSize);
  image.set(db.subarray(0, Math.min(db.length, image.length)));
  for (const [page, offset] of committed) {
    if (page <= pagesAfterCommit) image.set(wal.subarray(offset, offset + pageSize), (page - 1) * pageSize);
  }
  return { image: asRollback(image), frames, salt, problem };
}

/** Bytes 18 and 19 of the header are the file format versions: 2 means "uses a log", 1 does not. */
function asRollback(image: Uint8Array): Uint8Array {
  if (image.length >= 100 && image[18] === 2 && image[19] === 2) {
    image[18] = 1;
    image[19] = 1;
  }
  return image;
}
