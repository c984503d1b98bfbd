// Reading an OpenCode-format SQLite database (OpenCode's, and its forks' such as Kilo's) without ever
// writing the agent's files: the one door adapters use. See README.md for how and why.
import { failFromError } from '../../result';
import type { Result } from '../../types';
import { openSnapshot } from './snapshot';
import { storeOverSnapshot } from './sqlStore';
import type { OpencodeStore } from './store';

export type { OpencodeStore, SessionFilter, StoreRow } from './store';
export { databasePageSize, foldWal, walSalt, type FoldedImage } from './walFold';
export { foldedImage } from './snapshot';

/** Opens the database at `path` (and its log) for reading; the caller closes it. */
export async function openStore(path: string): Promise<Result<OpencodeStore>> {
  const snapshot = await openSnapshot(path);
  return snapshot.ok ? { ok: true, value: storeOverSnapshot(path, snapshot.value) } : snapshot;
}

/** Runs `read` on the database at `path` and always closes it. */
export async function withStore<T>(path: string, read: (store: OpencodeStore) => Result<T>): Promise<Result<T>> {
  const opened = await openStore(path);
  if (!opened.ok) return opened;
  try {
    return read(opened.value);
  } catch (error) {
    return failFromError(error, path);
  } finally {
    opened.value.close();
  }
}
