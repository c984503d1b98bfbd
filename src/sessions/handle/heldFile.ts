// One open file per followed session, whatever reads it. While a session file is held (a session
// handle holds its file), every reader's open of that path gets a view of the same descriptor, and
// the newest bytes read stay in memory: the follower, the live context, the usage and the calls all
// read the same appended bytes, and the file itself is read once. Readers are unchanged: they open,
// read by position and close as before (the view's close leaves the descriptor open).
// A file replaced under it (another inode) is opened again; one truncated or rewritten in place is
// told by its size and by the bytes just before the end kept (the seal, as readMemo.ts checks).
import { stat, type FileHandle } from 'node:fs/promises';
import type { Stats } from 'node:fs';
import { TailBytes } from './tailBytes';

interface Held {
  holders: number;
  /** The shared descriptor, or the open under way (two readers at once open it once). */
  file: Promise<FileHandle> | null;
  dev: number;
  ino: number;
  /** Size, mtime and ctime when the bytes were last checked: unchanged, nothing is read to check. */
  stamp: string;
  bytes: TailBytes;
}

const held = new Map<string, Held>();

/** Keeps `path` open and its newest bytes in memory until `release()` (calls nest: the last release closes it). */
export function holdFile(path: string): { release(): Promise<void> } {
  const entry = held.get(path) ?? { holders: 0, file: null, dev: -1, ino: -1, stamp: '', bytes: new TailBytes() };
  entry.holders++;
  held.set(path, entry);
  let released = false;
  return {
    release: async () => {
      if (released) return;
      released = true;
      if (--entry.holders > 0) return;
      held.delete(path);
      const file = entry.file;
      entry.file = null;
      entry.bytes.clear();
      await (await file?.catch(() => undefined))?.close().catch(() => undefined);
    },
  };
}

/**
 * A view of the held file for a reader that opens `path`, or undefined when it is not held (the
 * reader opens it itself). `openFresh` opens it (a regular file, for reading) when it must be.
 * Throws as `openFresh` and `stat` do (a missing file, permission).
 */
export async function openHeld(path: string, openFresh: (path: string) => Promise<FileHandle>): Promise<FileHandle | undefined> {
  const entry = held.get(path);
  if (entry === undefined) return undefined;
  const now = await stat(path);
  if (entry.file === null || now.dev !== entry.dev || now.ino !== entry.ino) {
    // First reader, or another file under the name now: its own descriptor and no bytes kept.
    const previous = entry.file;
    entry.file = openFresh(path);
    entry.dev = now.dev;
    entry.ino = now.ino;
    entry.stamp = '';
    entry.bytes.clear();
    void previous?.then((file) => file.close()).catch(() => undefined);
  }
  let file: FileHandle;
  try {
    file = await entry.file;
  } catch (error) {
    entry.file = null;
    throw error;
  }
  await checkKept(entry, file, now);
  return viewOf(file, entry.bytes);
}

/** Bytes kept of a file that changed other than by appending are dropped (they would be read again). */
async function checkKept(entry: Held, file: FileHandle, now: Stats): Promise<void> {
  const stamp = `${now.size}:${now.mtimeMs}:${now.ctimeMs}`;
  if (stamp === entry.stamp) return;
  entry.stamp = stamp;
  await entry.bytes.extendOrDrop(file, now.size);
}

/** The descriptor as a reader's own: reads by position served from the kept bytes, close a no-op. */
function viewOf(file: FileHandle, bytes: TailBytes): FileHandle {
  return new Proxy(file, {
    get(target, property) {
      if (property === 'close') return () => Promise.resolve();
      if (property === 'read')
        return (buffer: unknown, offset?: unknown, length?: unknown, position?: unknown) => bytes.read(target, buffer, offset, length, position);
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/** Files held now, for tests. */
export function heldPaths(): string[] {
  return [...held.keys()];
}
