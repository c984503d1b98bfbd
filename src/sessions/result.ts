// Constructors for `Result`, and the mapping from Node's errno codes to adapter errors, shared by
// every adapter so a missing file reads the same everywhere.
import { constants } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import type { Result, SessionError } from './types';

export function ok<T>(value: T): Result<T> {
  return { ok: true, value };
}

export function fail<T>(code: SessionError['code'], message: string, path?: string): Result<T> {
  return { ok: false, error: path === undefined ? { code, message } : { code, message, path } };
}

/** A failure already worded as a result, thrown by code whose callers expect throws (see `scanLines`). */
export class FailureError extends Error {
  constructor(readonly failure: SessionError) {
    super(failure.message);
  }
}

/** Turns a thrown fs error into a result; anything unexpected becomes `io`. */
export function failFromError<T>(error: unknown, path: string): Result<T> {
  if (error instanceof FailureError) return { ok: false, error: error.failure };
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const detail = error instanceof Error ? error.message : String(error);
  if (code === 'ENOENT') return fail('not-found', `No such file: ${path}`, path);
  if (code === 'EACCES' || code === 'EPERM') return fail('permission-denied', `Permission denied: ${path}`, path);
  if (code === 'ELOOP') return fail('io', `Symlink loop: ${path}`, path);
  return fail('io', `Cannot read ${path}: ${detail}`, path);
}

/**
 * Opens `path` for reading, runs `read`, and always closes it; every fs error becomes a result.
 * Only regular files are read: a FIFO or a device named like a transcript would block every read
 * (or never end), so it is opened non-blocking, checked, and refused.
 */
export async function withFile<T>(path: string, read: (handle: FileHandle) => Promise<Result<T>>): Promise<Result<T>> {
  const opened = await openRegularFile(path);
  if (!opened.ok) return opened;
  const handle = opened.value;
  try {
    return await read(handle);
  } catch (error) {
    return failFromError(error, path);
  } finally {
    await handle.close();
  }
}

/** Opens a regular file for reading (see `withFile`); the caller closes the handle. */
export async function openRegularFile(path: string): Promise<Result<FileHandle>> {
  try {
    return ok(await openRegular(path));
  } catch (error) {
    return failFromError(error, path);
  }
}

/** `openRegularFile` for code whose callers expect throws: fs errors keep their errno code. */
export async function openRegular(path: string): Promise<FileHandle> {
  // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer forever.
  const handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
  let stats;
  try {
    stats = await handle.stat();
  } catch (error) {
    await handle.close().catch(() => undefined);
    throw error;
  }
  if (stats.isFile()) return handle;
  await handle.close();
  throw new FailureError({ code: 'io', message: `Not a regular file (${stats.isDirectory() ? 'a folder' : stats.isFIFO() ? 'a named pipe' : 'a device or socket'}): ${path}`, path });
}

/**
 * The text of a regular file someone else controls (a workspace's settings), at most `maxBytes`:
 * a named pipe, a device such as /dev/zero or a file past the cap is refused with a reason, never
 * waited on or read without end. Null when there is no file.
 */
export async function readRegularText(path: string, maxBytes: number): Promise<Result<string | null>> {
  let handle: FileHandle;
  try {
    handle = await openRegular(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return ok(null);
    return failFromError(error, path);
  }
  try {
    const { size } = await handle.stat();
    if (size > maxBytes) return fail('invalid-input', `Over ${maxBytes} bytes (${size}): not read: ${path}`, path);
    // Read to the cap only: a file that grows while it is read is cut there.
    const buffer = Buffer.alloc(Math.min(size, maxBytes) + 1);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    if (bytesRead > maxBytes) return fail('invalid-input', `Over ${maxBytes} bytes: not read: ${path}`, path);
    return ok(buffer.subarray(0, bytesRead).toString('utf8'));
  } catch (error) {
    return failFromError(error, path);
  } finally {
    await handle.close();
  }
}
