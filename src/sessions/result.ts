// Constructors for `Result`, and the mapping from Node's errno codes to adapter errors, shared by
// every adapter so a missing file reads the same everywhere.
import { constants } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Result, SessionError } from './types';
import { openHeld } from './handle/heldFile';

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

/** What the failing call was doing: the sentence for an errno depends on it (ENOENT on a write is a missing folder). */
export type FsOperation = 'read' | 'write' | 'create-folder' | 'remove';

/**
 * Turns a thrown fs error into a result whose message names the real cause and the path, in a
 * plain sentence (see `describeFsError`); anything unexpected becomes `io`.
 */
export function failFromError<T>(error: unknown, path: string, operation: FsOperation = 'read'): Result<T> {
  if (error instanceof FailureError) return { ok: false, error: error.failure };
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const message = describeFsError(error, path, operation);
  if (code === 'ENOENT' && operation === 'read') return fail('not-found', message, path);
  if (code === 'EACCES' || code === 'EPERM') return fail('permission-denied', message, path);
  return fail('io', message, path);
}

const DOING: Record<FsOperation, string> = { read: 'reading', write: 'writing', 'create-folder': 'creating the folder', remove: 'removing' };

/**
 * One sentence for an fs error: the cause first, then what was being done to which path. A full
 * disk while writing is never "Cannot read", a read-only file system never "No such file".
 */
export function describeFsError(error: unknown, path: string, operation: FsOperation): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const doing = `${DOING[operation]} ${path}`;
  switch (code) {
    case 'ENOSPC':
      return `No space left on the disk while ${doing}`;
    case 'EDQUOT':
      return `Disk quota exceeded while ${doing}`;
    case 'EROFS':
      return `${operation === 'write' ? dirname(path) : path} is on a read-only file system (while ${doing})`;
    case 'EACCES':
    case 'EPERM':
      return operation === 'read' ? `Permission denied: ${path}` : `Permission denied ${doing}`;
    case 'ENOENT':
      // Node's recursive mkdir reports a read-only file system as ENOENT when the folder does not exist yet.
      if (operation === 'create-folder') return `Cannot create the folder ${path}: the disk there is read-only, or a folder above it cannot be made`;
      return operation === 'write' ? `No such folder: ${dirname(path)} (while ${doing})` : `No such file: ${path}`;
    case 'ENOTDIR':
      return `A part of ${path} is a file, not a folder (while ${doing})`;
    case 'EISDIR':
      return `${path} is a folder, not a file (while ${doing})`;
    case 'ELOOP':
      return `Symlink loop: ${path}`;
    case 'EMFILE':
    case 'ENFILE':
      return `Too many open files while ${doing}`;
    case 'EIO':
      return `The disk reported an I/O error while ${doing}`;
    default: {
      const detail = error instanceof Error ? error.message : String(error);
      return `Failed ${doing}: ${detail}`;
    }
  }
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
  // A followed session's file is open already (handle/heldFile.ts): every reader shares it.
  return (await openHeld(path, openFresh)) ?? openFresh(path);
}

async function openFresh(path: string): Promise<FileHandle> {
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
  throw new FailureError({
    code: 'io',
    message: `Not a regular file (${stats.isDirectory() ? 'a folder' : stats.isFIFO() ? 'a named pipe' : stats.isSocket() ? 'a socket' : 'a device'}): ${path}`,
    path,
  });
}
