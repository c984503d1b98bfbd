// The database image with its log folded in, whole: for a fixture or a test's copy, never the agent's
// file (the store reads the agent's database page by page, see pager.ts).
import { fail, ok } from '../../result';
import { READ_CAPS, readRegularBytes } from '../regularFile';
import type { Result } from '../../types';
import { foldWal } from './walFold';

async function readBytes(path: string): Promise<Result<Uint8Array | null>> {
  const read = await readRegularBytes(path, READ_CAPS.database);
  return read.ok ? ok(read.value === null ? null : new Uint8Array(read.value.buffer, read.value.byteOffset, read.value.byteLength)) : read;
}

export async function foldedImage(path: string): Promise<Result<Uint8Array>> {
  const db = await readBytes(path);
  if (!db.ok) return db;
  if (db.value === null) return fail('not-found', `No such file: ${path}`, path);
  const wal = await readBytes(`${path}-wal`);
  if (!wal.ok) return wal;
  return ok(foldWal(db.value, wal.value).image);
}
