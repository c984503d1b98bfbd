// Writes an SQLite write-ahead log by the file format (independently of src/'s fold), so tests can
// play OpenCode appending to its database: the pages that differ between two images become frames
// of one transaction, the last marked as its commit. Also unpacks a recorded fixture.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import initSqlJs, { type SqlJsStatic } from 'sql.js/dist/sql-wasm.js';

export const FIXTURES = join(__dirname, '..', 'fixtures', 'opencode', 'recorded');

/** A recorded database, unpacked to `path`. */
export function unpackFixture(name: string, path: string): Uint8Array {
  const bytes = gunzipSync(readFileSync(join(FIXTURES, `${name}.db.gz`)));
  writeFileSync(path, bytes);
  return new Uint8Array(bytes);
}

function sums(bytes: Uint8Array, big: boolean, start: [number, number]): [number, number] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let [a, b] = start;
  for (let at = 0; at + 8 <= bytes.length; at += 8) {
    a = (a + view.getUint32(at, !big) + b) >>> 0;
    b = (b + view.getUint32(at + 4, !big) + a) >>> 0;
  }
  return [a, b];
}

export interface WalOptions {
  big?: boolean;
  salts?: [number, number];
  /** Leave the last frame's commit mark off (a transaction still being written). */
  uncommitted?: boolean;
}

/** A log taking `before` to `after` (same page size, read from `after`'s header). */
export function walBetween(before: Uint8Array, after: Uint8Array, options: WalOptions = {}): Uint8Array {
  const pageSize = (((after[16] ?? 0) << 8) | (after[17] ?? 0)) === 1 ? 65536 : ((after[16] ?? 0) << 8) | (after[17] ?? 0);
  const pages = after.length / pageSize;
  const changed: number[] = [];
  for (let page = 1; page <= pages; page++) {
    const a = after.subarray((page - 1) * pageSize, page * pageSize);
    const b = before.subarray((page - 1) * pageSize, page * pageSize);
    if (b.length !== a.length || a.some((byte, index) => byte !== b[index])) changed.push(page);
  }
  const big = options.big ?? false;
  const [salt1, salt2] = options.salts ?? [0x1234, 0x5678];
  const out = new Uint8Array(32 + changed.length * (24 + pageSize));
  const view = new DataView(out.buffer);
  view.setUint32(0, big ? 0x377f0683 : 0x377f0682);
  view.setUint32(4, 3007000);
  view.setUint32(8, pageSize);
  view.setUint32(16, salt1);
  view.setUint32(20, salt2);
  let running = sums(out.subarray(0, 24), big, [0, 0]);
  view.setUint32(24, running[0]);
  view.setUint32(28, running[1]);
  changed.forEach((page, index) => {
    const at = 32 + index * (24 + pageSize);
    view.setUint32(at, page);
    view.setUint32(at + 4, index === changed.length - 1 && options.uncommitted !== true ? pages : 0);
    view.setUint32(at + 8, salt1);
    view.setUint32(at + 12, salt2);
    out.set(after.subarray((page - 1) * pageSize, page * pageSize), at + 24);
    running = sums(out.subarray(at, at + 8), big, running);
    running = sums(out.subarray(at + 24, at + 24 + pageSize), big, running);
    view.setUint32(at + 16, running[0]);
    view.setUint32(at + 20, running[1]);
  });
  return out;
}

/**
 * A little-endian log (walBetween's default) with its header's and frames' checksums recomputed as
 * if its pages were `pageSize` long: a log whose only fault is what it claims (a page size, a commit's
 * database size), which SQLite's checksums alone would not catch.
 */
export function resealWal(wal: Uint8Array, pageSize: number): Uint8Array {
  const view = new DataView(wal.buffer, wal.byteOffset, wal.byteLength);
  let running = sums(wal.subarray(0, 24), false, [0, 0]);
  view.setUint32(24, running[0]);
  view.setUint32(28, running[1]);
  for (let at = 32; at + 24 + pageSize <= wal.length; at += 24 + pageSize) {
    running = sums(wal.subarray(at, at + 8), false, running);
    running = sums(wal.subarray(at + 24, at + 24 + pageSize), false, running);
    view.setUint32(at + 16, running[0]);
    view.setUint32(at + 20, running[1]);
  }
  return wal;
}

let loaded: SqlJsStatic | null = null;
/** SQLite, loaded once; `imageAfterSync` needs it loaded (await this first). */
export const sqliteReady: Promise<SqlJsStatic> = initSqlJs({ wasmBinary: readFileSync(require.resolve('sql.js/dist/sql-wasm.wasm')) }).then(
  (SQL) => (loaded = SQL),
);

/** `image` after `sql` ran on it (in memory, with sql.js); the page layout stays SQLite's own. */
export async function imageAfter(image: Uint8Array, sql: string, params: unknown[] = []): Promise<Uint8Array> {
  await sqliteReady;
  return imageAfterSync(image, sql, params);
}

/** `imageAfter` for callers that cannot wait (the contract subject); SQLite must be loaded. */
export function imageAfterSync(image: Uint8Array, sql: string, params: unknown[] = []): Uint8Array {
  if (loaded === null) throw new Error('SQLite (sql.js) is not loaded yet: await sqliteReady first');
  const db = new loaded.Database(image);
  db.exec(sql, params);
  const bytes = db.export();
  db.close();
  return bytes;
}
