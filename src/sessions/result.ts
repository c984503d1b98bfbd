// Constructors for `Result`, and the mapping from Node's errno codes to adapter errors, shared by
// every adapter so a missing file reads the same everywhere.
import { open, type FileHandle } from 'node:fs/promises';
import type { Result, SessionError } from './types';

export function ok<T>(value: T): Result<T> {
  return { ok: true, value };
}

export function fail<T>(code: SessionError['code'], message: string, path?: string): Result<T> {
  return { ok: false, error: path === undefined ? { code, message } : { code, message, path } };
}

/** Turns a thrown fs error into a result; anything unexpected becomes `io`. */
export function failFromError<T>(error: unknown, path: string): Result<T> {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const detail = error instanceof Error ? error.message : String(error);
  if (code === 'ENOENT') return fail('not-found', `No such file: ${path}`, path);
  if (code === 'EACCES' || code === 'EPERM') return fail('permission-denied', `Permission denied: ${path}`, path);
  return fail('io', `Cannot read ${path}: ${detail}`, path);
}

/** Opens `path` for reading, runs `read`, and always closes it; every fs error becomes a result. */
export async function withFile<T>(path: string, read: (handle: FileHandle) => Promise<Result<T>>): Promise<Result<T>> {
  let handle: FileHandle;
  try {
    handle = await open(path, 'r');
  } catch (error) {
    return failFromError(error, path);
  }
  try {
    return await read(handle);
  } catch (error) {
    return failFromError(error, path);
  } finally {
    await handle.close();
  }
}
