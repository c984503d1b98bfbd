// Pages of an SQLite database as a reader sees them after the log's last commit, read one at a time
// with plain read-only file reads: a page the log holds comes from the log (walIndex.ts), any other
// from the database file. No SQLite connection is opened on the agent's files: no lock, no `-shm`,
// no checkpoint, nothing written. Memory is the log's page map plus a small cache of recent pages.
import { closeSync, constants, fstatSync, openSync } from 'node:fs';
import { databasePageSize } from './walFold';
import { indexWal, readAt, type WalIndex } from './walIndex';
import { checkKept, keepPage, keptPage, keptReadsOf, type KeptReads } from './keptReads';

/** The database file format's magic (the first 16 bytes of page 1). */
const MAGIC = 'SQLite format 3\0';
/** Bytes of recent pages kept (interior pages of the b-trees are read again and again). */
const CACHE_BYTES = 8 * 1024 * 1024;

/** A database that cannot be read as SQLite (truncated, a cycle, a lying size): the message says where. */
export class CorruptError extends Error {}
/** The log was restarted or the file changed under the read: reading again sees a consistent state. */
export class ChangedError extends Error {}

interface OpenFile {
  fd: number;
  size: number;
  mtimeMs: number;
  ino: number;
}

/** Opens a regular file read-only; a pipe, folder or device is refused (O_NONBLOCK: a FIFO never waits). */
function openRegularSync(path: string): OpenFile | null {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  const stats = fstatSync(fd);
  if (!stats.isFile()) {
    closeSync(fd);
    throw new Error(
      `Not a regular file (${stats.isDirectory() ? 'a folder' : stats.isFIFO() ? 'a named pipe' : stats.isSocket() ? 'a socket' : 'a device'}): ${path}`,
    );
  }
  return { fd, size: stats.size, mtimeMs: stats.mtimeMs, ino: stats.ino };
}

export class Pager {
  readonly pageSize: number;
  /** Usable bytes of a page (the page size less the reserved bytes at each page's end). */
  readonly usable: number;
  /** Pages of the database as the reader sees it. */
  readonly pageCount: number;
  /** Text encoding of the database: 1 UTF-8, 2 UTF-16le, 3 UTF-16be. */
  readonly encoding: number;
  private readonly cache = new Map<number, Uint8Array>();
  private readonly cacheLimit: number;
  /** Pages read from the files (not the cache): what a query cost. */
  pagesRead = 0;

  private constructor(
    readonly path: string,
    private readonly db: OpenFile,
    private readonly wal: OpenFile | null,
    readonly log: WalIndex,
    /** Pages kept from earlier reads of a followed database (keptReads.ts), or undefined. */
    private readonly kept?: KeptReads,
  ) {
    const header = this.page(1, true);
    if (new TextDecoder().decode(header.subarray(0, 16)) !== MAGIC) throw new CorruptError(`Not an SQLite database: ${path}`);
    this.pageSize = this.log.pageSize ?? databasePageSize(header) ?? 0;
    this.usable = this.pageSize - (header[20] ?? 0);
    this.encoding = ((header[56] ?? 0) << 24) | ((header[57] ?? 0) << 16) | ((header[58] ?? 0) << 8) | (header[59] ?? 0);
    if (this.usable < 480) throw new CorruptError(`${path}: reserved bytes ${header[20]} leave too little of a ${this.pageSize}-byte page`);
    // The header's own page count when it is current (SQLite's rule: bytes 92–95 equal the change counter at 24–27):
    // a file shorter than it is truncated, and reading past its end says so.
    const view = new DataView(header.buffer, header.byteOffset, header.byteLength);
    const inHeader = view.getUint32(28, false);
    const current = inHeader > 0 && view.getUint32(92, false) === view.getUint32(24, false);
    this.pageCount = this.log.pageCount ?? (current ? inHeader : Math.floor(db.size / this.pageSize));
    this.cacheLimit = Math.max(16, Math.floor(CACHE_BYTES / this.pageSize));
  }

  /** Opens `path` and its `-wal`; null when there is no database file. */
  static open(path: string): Pager | null {
    const db = openRegularSync(path);
    if (db === null) return null;
    let wal: OpenFile | null = null;
    try {
      wal = openRegularSync(`${path}-wal`);
      const header = readAt(db.fd, 100, 0);
      const dbPageSize = databasePageSize(header);
      if (dbPageSize === null && (wal === null || wal.size === 0)) throw new CorruptError(`Not an SQLite database: ${path}`);
      const dbPages = dbPageSize === null ? 0 : Math.floor(db.size / dbPageSize);
      // A followed database: the log is read on from its last commit read, when it is the same log.
      const kept = keptReadsOf(path);
      const dbStamp = `${db.ino}:${db.size}:${db.mtimeMs}`;
      const walIno = `${wal?.ino ?? '-'}:`;
      const from = kept !== undefined && kept.dbStamp === dbStamp && kept.walStamp.startsWith(walIno) ? kept.resume : null;
      const log = wal === null ? indexWal(-1, 0, header, dbPages) : indexWal(wal.fd, wal.size, header, dbPages, from);
      if (dbPageSize === null && log.pageCount === null) throw new CorruptError(`Not an SQLite database: ${path}`);
      if (kept !== undefined) {
        checkKept(kept, dbStamp, `${walIno}${log.salt}`);
        kept.resume = log.resume;
      }
      return new Pager(path, db, wal, log, kept);
    } catch (error) {
      closeSync(db.fd);
      if (wal !== null) closeSync(wal.fd);
      throw error;
    }
  }

  /** Page `number` (1-based) as the reader sees it; a number out of the database is corruption. */
  page(number: number, first = false): Uint8Array {
    const cached = this.cache.get(number);
    if (cached !== undefined) {
      this.cache.delete(number);
      this.cache.set(number, cached);
      return cached;
    }
    if (!first && (!Number.isInteger(number) || number < 1 || number > this.pageCount))
      throw new CorruptError(`${this.path}: page ${number} is outside the database (${this.pageCount} pages)`);
    const key = this.keptKey(number);
    const wasKept = key === undefined ? undefined : keptPage(this.kept as KeptReads, key);
    if (wasKept !== undefined) {
      this.remember(number, wasKept);
      return wasKept;
    }
    const bytes = first ? this.readPage(number, this.log.pageSize ?? 0) : this.readPage(number, this.pageSize);
    this.pagesRead++;
    this.remember(number, bytes);
    if (key !== undefined) keepPage(this.kept as KeptReads, key, bytes);
    return bytes;
  }

  /** Where page `number` comes from, as the kept reads name it; undefined when nothing is kept. */
  private keptKey(number: number): string | undefined {
    if (this.kept === undefined) return undefined;
    const offset = this.log.frames.get(number);
    return offset !== undefined && this.wal !== null ? `w${offset}` : `d${number}`;
  }

  /** Page `number` for one look: from the cache, else read into a buffer reused by the next call (a scan's leaves are read once; caching them would only churn memory). */
  pageOnce(number: number): Uint8Array {
    const cached = this.cache.get(number);
    if (cached !== undefined) return cached;
    if (!Number.isInteger(number) || number < 1 || number > this.pageCount)
      throw new CorruptError(`${this.path}: page ${number} is outside the database (${this.pageCount} pages)`);
    const key = this.keptKey(number);
    const wasKept = key === undefined ? undefined : keptPage(this.kept as KeptReads, key);
    if (wasKept !== undefined) return wasKept;
    this.pagesRead++;
    return this.readPage(number, this.pageSize, this.scratch);
  }

  private readonly scratch = new Uint8Array(24 + 65536);

  private remember(number: number, bytes: Uint8Array): void {
    this.cache.set(number, bytes);
    if (this.cache.size > this.cacheLimit) this.cache.delete(this.cache.keys().next().value as number);
  }

  private readPage(number: number, size: number, into?: Uint8Array): Uint8Array {
    const offset = this.log.frames.get(number);
    if (offset !== undefined && this.wal !== null) {
      // The frame's header again: salts other than the indexed ones mean the log was restarted since.
      const frame = readAt(this.wal.fd, 24 + size, offset - 24, into);
      const view = new DataView(frame.buffer, frame.byteOffset, frame.byteLength);
      if (frame.length < 24 + size || `${view.getUint32(8, false)}:${view.getUint32(12, false)}` !== this.log.salt)
        throw new ChangedError(`${this.path}-wal was restarted while it was read`);
      return frame.subarray(24);
    }
    // Page 1 before the page size is known: the database header says it (100 bytes suffice to start).
    const pageSize = size > 0 ? size : (databasePageSize(readAt(this.db.fd, 100, 0)) ?? 100);
    const bytes = readAt(this.db.fd, pageSize, (number - 1) * pageSize, into);
    if (bytes.length < pageSize) throw new CorruptError(`${this.path} is truncated: page ${number} lies past its end (${this.db.size} bytes)`);
    return bytes;
  }

  /** Whether the files moved since they were opened (a checkpoint, a restarted log, a rewrite). */
  changed(): boolean {
    try {
      const db = fstatSync(this.db.fd);
      if (db.size !== this.db.size || db.mtimeMs !== this.db.mtimeMs) return true;
      if (this.wal === null) return false;
      const wal = fstatSync(this.wal.fd);
      return wal.size !== this.wal.size || wal.mtimeMs !== this.wal.mtimeMs;
    } catch {
      return true;
    }
  }

  close(): void {
    closeSync(this.db.fd);
    if (this.wal !== null) closeSync(this.wal.fd);
    this.cache.clear();
  }
}
