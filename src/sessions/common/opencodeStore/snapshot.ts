// A private, read-only snapshot of OpenCode's database: the bytes of `opencode.db` and its
// `opencode.db-wal`, the log folded in (walFold.ts), opened in the WebAssembly build of SQLite
// (sql.js) in memory. Why this and not a driver that opens the agent's file (see README.md): it runs
// on Node 20, in Electron's extension host and on Node 24 alike with no native build, it takes no
// lock on the agent's database and writes nothing beside it (a read-only SQLite connection still
// writes the `-shm` index), and it sees the rows that live only in the log.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type initSqlJs from 'sql.js/dist/sql-wasm.js';
import type { Database, SqlJsStatic } from 'sql.js/dist/sql-wasm.js';
import { fail, failFromError, ok } from '../../result';
import { READ_CAPS, readRegularBytes } from '../regularFile';
import type { Result } from '../../types';
import { foldWal, walSalt } from './walFold';

/** The database header every SQLite file starts with. */
const MAGIC = 'SQLite format 3\0';
/** A checkpoint that restarts the log between our two reads changes its salts: read again, this often. */
const ATTEMPTS = 3;

let engine: Promise<SqlJsStatic> | null = null;

/** The .wasm beside the bundle (dist/), or in node_modules when run from the sources: our own file, read as it is. */
function wasmBytes(): Uint8Array {
  const beside = join(__dirname, 'sql-wasm.wasm');
  try {
    return readFileSync(beside);
  } catch {
    // From the sources (tests, tsx): the package's own copy. createRequire keeps the bundler from resolving it.
    return readFileSync(createRequire(__filename).resolve('sql.js/dist/sql-wasm.wasm'));
  }
}

/** Loads SQLite once per process, on first use (~35 ms: compiling the WebAssembly). */
function sqlite(): Promise<SqlJsStatic> {
  if (engine !== null) return engine;
  // A lazy require (the bundles' shared dist/sqlite.js, see esbuild.mjs): a run that never reads OpenCode never loads it.
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- an import would load it with this module
  const module = require('sql.js/dist/sql-wasm.js') as typeof initSqlJs | { default: typeof initSqlJs };
  const init = 'default' in module ? module.default : module;
  engine = init({ wasmBinary: wasmBytes() });
  return engine;
}

export type Row = Record<string, unknown>;

export interface Snapshot {
  /** Rows of one query, columns by name; SQL errors (an unknown table) become a failed result. */
  rows(sql: string, params?: unknown[]): Result<Row[]>;
  /** Committed log frames folded in (0: none). */
  readonly walFrames: number;
  /** Why the log, or its end, was left out (a header or frame that lies about its sizes); null: it was not. */
  readonly walProblem: string | null;
  close(): void;
}

/** The whole file, as sql.js needs it: a regular file under the database cap (a pipe or /dev/zero is refused). */
async function readBytes(path: string): Promise<Result<Uint8Array>> {
  const read = await readRegularBytes(path, READ_CAPS.database);
  if (!read.ok) return read;
  return read.value === null ? fail('not-found', `No such file: ${path}`, path) : ok(new Uint8Array(read.value.buffer, read.value.byteOffset, read.value.byteLength));
}

/** The log's bytes, or null when there is none (a missing log is normal: the agent checkpointed). */
async function readWal(path: string): Promise<Result<Uint8Array | null>> {
  const read = await readBytes(`${path}-wal`);
  if (read.ok) return read;
  return read.error.code === 'not-found' ? ok(null) : read;
}

/** Opens a snapshot of `path` (and its log); the caller closes it. */
export async function openSnapshot(path: string): Promise<Result<Snapshot>> {
  for (let attempt = 1; ; attempt++) {
    const before = await readWal(path);
    if (!before.ok) return before;
    const db = await readBytes(path);
    if (!db.ok) return db;
    const after = await readWal(path);
    if (!after.ok) return after;
    // The log was restarted (new salts) while we read the database: its frames no longer match the pages we hold.
    if (walSalt(before.value) !== walSalt(after.value) && attempt < ATTEMPTS) continue;
    return open(path, db.value, after.value);
  }
}

async function open(path: string, bytes: Uint8Array, wal: Uint8Array | null): Promise<Result<Snapshot>> {
  if (bytes.length < 100 || new TextDecoder().decode(bytes.subarray(0, 16)) !== MAGIC) return fail('invalid-input', `Not an SQLite database: ${path}`, path);
  let SQL: SqlJsStatic;
  try {
    SQL = await sqlite();
  } catch (error) {
    return failFromError(error, path);
  }
  const folded = foldWal(bytes, wal);
  let db: Database;
  try {
    db = new SQL.Database(folded.image);
  } catch (error) {
    return fail('invalid-input', `Cannot open ${path} as SQLite: ${error instanceof Error ? error.message : String(error)}`, path);
  }
  return ok({
    walFrames: folded.frames,
    walProblem: folded.problem === null ? null : `${path}-wal: ${folded.problem}`,
    rows(sql: string, params: unknown[] = []): Result<Row[]> {
      try {
        const [result] = db.exec(sql, params);
        if (result === undefined) return ok([]);
        return ok(result.values.map((values) => Object.fromEntries(result.columns.map((column, index) => [column, values[index]]))));
      } catch (error) {
        return fail('invalid-input', `${path}: ${error instanceof Error ? error.message : String(error)}`, path);
      }
    },
    close: () => db.close(),
  });
}

/** Runs `read` on a snapshot of `path` and always closes it. */
export async function withSnapshot<T>(path: string, read: (snapshot: Snapshot) => Result<T>): Promise<Result<T>> {
  const opened = await openSnapshot(path);
  if (!opened.ok) return opened;
  try {
    return read(opened.value);
  } catch (error) {
    return failFromError(error, path);
  } finally {
    opened.value.close();
  }
}

/** The database image with the log folded in, for a fixture or a test's copy (never the agent's file). */
export async function foldedImage(path: string): Promise<Result<Uint8Array>> {
  const db = await readBytes(path);
  if (!db.ok) return db;
  const wal = await readWal(path);
  if (!wal.ok) return wal;
  return ok(foldWal(db.value, wal.value).image);
}
