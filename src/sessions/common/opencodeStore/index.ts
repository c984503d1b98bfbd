// Reading an OpenCode-format SQLite database (OpenCode's, and its forks' such as Kilo's) without ever
// writing the agent's files: the one door adapters use. See README.md for how and why.
import { fail, failFromError, ok } from '../../result';
import type { Result } from '../../types';
import { PageStore } from './pageStore';
import { ChangedError, CorruptError, Pager } from './pager';
import type { OpencodeStore } from './store';

export type { OpencodeStore, SessionFilter, StoreRow } from './store';
export { databasePageSize, foldWal, walSalt, type FoldedImage } from './walFold';
export { foldedImage } from './image';
export { keepReads } from './keptReads';

/** A read that met the files changing (a checkpoint, a restarted log) is made again, this often at most. */
const ATTEMPTS = 3;

/** Opens the database at `path` (and its log) for reading; the caller closes it. */
export async function openStore(path: string): Promise<Result<OpencodeStore>> {
  await Promise.resolve();
  return openPageStore(path);
}

function openPageStore(path: string): Result<PageStore> {
  let pager: Pager | null = null;
  try {
    pager = Pager.open(path);
    if (pager === null) return fail('not-found', `No such file: ${path}`, path);
    return ok(new PageStore(pager));
  } catch (error) {
    pager?.close();
    if (error instanceof CorruptError || error instanceof ChangedError)
      return fail('invalid-input', error.message.startsWith(path) || error.message.includes(path) ? error.message : `${path}: ${error.message}`, path);
    return failFromError(error, path);
  }
}

/** Runs `read` on the database at `path` and always closes it; a read the agent's writes interrupted is made again. */
export async function withStore<T>(path: string, read: (store: OpencodeStore) => Result<T>): Promise<Result<T>> {
  await Promise.resolve();
  for (let attempt = 1; ; attempt++) {
    const opened = openPageStore(path);
    if (!opened.ok) return opened;
    const store = opened.value;
    try {
      const result = read(store);
      if (!store.interrupted || attempt >= ATTEMPTS) return result;
    } catch (error) {
      return failFromError(error, path);
    } finally {
      store.close();
    }
  }
}
