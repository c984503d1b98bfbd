// Folds an SQLite write-ahead log into a copy of its database file, as SQLite itself does when it
// reads: the newest committed version of each page wins. OpenCode keeps its newest rows in
// `opencode.db-wal` for a while; a reader of `opencode.db` alone is behind. We never open the
// agent's files with SQLite (no locks, no shared-memory index, nothing written): we read their bytes,
// fold them here, and hand the image to the in-memory SQLite of snapshot.ts.
// Format: https://www.sqlite.org/fileformat2.html#the_write_ahead_log (facts only).

const WAL_HEADER = 32;
const FRAME_HEADER = 24;
const MAGIC_LITTLE = 0x377f0682;
const MAGIC_BIG = 0x377f0683;

export interface FoldedImage {
  /** The database as a reader sees it after the last commit in the log. */
  image: Uint8Array;
  /** Committed frames applied (0: the log was empty, stale or absent). */
  frames: number;
  /** The log's salts: a checkpoint that restarts the log changes them (snapshot.ts compares them). */
  salt: string;
}

/** SQLite's running checksum over 32-bit words, in the byte order the log's magic says. */
function checksum(bytes: DataView, from: number, to: number, big: boolean, start: [number, number]): [number, number] {
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

/**
 * `db` with every committed frame of `wal` applied. Frames after the last commit (a transaction
 * still being written), frames of an earlier log generation (other salts) and frames whose checksum
 * breaks the chain are ignored, as SQLite ignores them. The result's header says "rollback journal"
 * so the in-memory SQLite does not look for a log of its own.
 */
export function foldWal(db: Uint8Array, wal: Uint8Array | null): FoldedImage {
  const salt = walSalt(wal);
  if (wal === null || salt === '') return { image: asRollback(db.slice()), frames: 0, salt };
  const view = new DataView(wal.buffer, wal.byteOffset, wal.byteLength);
  const big = view.getUint32(0, false) === MAGIC_BIG;
  const pageSize = view.getUint32(8, false) || 65536;
  const salt1 = view.getUint32(16, false);
  const salt2 = view.getUint32(20, false);
  let sums = checksum(view, 0, 24, big, [0, 0]);
  if (sums[0] !== view.getUint32(24, false) || sums[1] !== view.getUint32(28, false)) return { image: asRollback(db.slice()), frames: 0, salt };

  // Pages of the transactions read so far; only made final at each commit frame.
  const pending = new Map<number, number>();
  const committed = new Map<number, number>();
  let pagesAfterCommit = 0;
  let frames = 0;
  for (let at = WAL_HEADER; at + FRAME_HEADER + pageSize <= wal.length; at += FRAME_HEADER + pageSize) {
    if (view.getUint32(at + 8, false) !== salt1 || view.getUint32(at + 12, false) !== salt2) break;
    sums = checksum(view, at, at + 8, big, sums);
    sums = checksum(view, at + FRAME_HEADER, at + FRAME_HEADER + pageSize, big, sums);
    if (sums[0] !== view.getUint32(at + 16, false) || sums[1] !== view.getUint32(at + 20, false)) break;
    pending.set(view.getUint32(at, false), at + FRAME_HEADER);
    const commitSize = view.getUint32(at + 4, false);
    if (commitSize !== 0) {
      for (const [page, offset] of pending) committed.set(page, offset);
      pending.clear();
      pagesAfterCommit = commitSize;
      frames++;
    }
  }
  if (frames === 0) return { image: asRollback(db.slice()), frames: 0, salt };

  const image = new Uint8Array(pagesAfterCommit * pageSize);
  image.set(db.subarray(0, Math.min(db.length, image.length)));
  for (const [page, offset] of committed) {
    if (page >= 1 && page <= pagesAfterCommit) image.set(wal.subarray(offset, offset + pageSize), (page - 1) * pageSize);
  }
  return { image: asRollback(image), frames, salt };
}

/** Bytes 18 and 19 of the header are the file format versions: 2 means "uses a log", 1 does not. */
function asRollback(image: Uint8Array): Uint8Array {
  if (image.length >= 100 && image[18] === 2 && image[19] === 2) {
    image[18] = 1;
    image[19] = 1;
  }
  return image;
}
