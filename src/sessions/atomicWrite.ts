// The one way Context Lens writes next to an agent's files: a temp file in the same folder (same
// file system), fsync, then published under the final name in one step, so nobody ever sees half a
// file. A file that edits one of ours (settings) replaces it (rename); a new file (a fork, its note)
// is published with a hard link, which fails when the name exists, so nothing ever replaces a
// session that is already there, whatever id it was given.
// The temp file is hidden and does not end in `.jsonl`, so the agent never lists a half-written
// session; one left by a killed run is removed by the next write to that folder.
import { constants } from 'node:fs';
import { copyFile, link, open, readdir, rename, stat, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { fail, failFromError, ok } from './result';
import { randomUUID } from './common/crypto';
import type { Result } from './types';

/** `mode` applies to a new file; rename keeps the temp file's mode, so pass the old one to keep it. */
export function writeAtomically(path: string, text: string, mode = 0o600): Promise<Result<void>> {
  return write(path, text, mode, true);
}

/**
 * Writes a file that must not exist yet: when `path` does (a fork id met an existing session), the
 * write fails ('exists') and the file there is untouched.
 */
export function writeNewAtomically(path: string, text: string, mode = 0o600): Promise<Result<void>> {
  return write(path, text, mode, false);
}

async function write(path: string, text: string, mode: number, replace: boolean): Promise<Result<void>> {
  await removeStaleTemps(dirname(path));
  const temp = join(dirname(path), `.${basename(path)}.${process.pid}-${randomUUID()}${TEMP_SUFFIX}`);
  try {
    const handle = await open(temp, 'wx', mode);
    try {
      await handle.writeFile(text, 'utf8');
      await handle.chmod(mode);
      await handle.sync();
    } finally {
      await handle.close();
    }
    if (replace) await rename(temp, path);
    else await publishNew(temp, path);
    await syncFolder(dirname(path));
    return ok(undefined);
  } catch (error) {
    // Whatever failed (a full disk, a read-only folder), no half-written temp file stays behind.
    await unlink(temp).catch(() => undefined);
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return fail('exists', `${path} already exists; it was left as it is and nothing was written`, path);
    return failFromError(error, path, 'write');
  }
}

/**
 * Gives the finished temp file its final name unless that name is taken. A hard link does it in one
 * step (rename would replace). Where the file system has no hard links, an exclusive copy still
 * never replaces anything, though a reader may then see the copy being written.
 */
async function publishNew(temp: string, path: string): Promise<void> {
  try {
    await link(temp, path);
  } catch (error) {
    if (!NO_HARD_LINKS.has((error as NodeJS.ErrnoException).code ?? '')) throw error;
    try {
      await copyFile(temp, path, constants.COPYFILE_EXCL);
    } catch (copyError) {
      // A copy cut short (a full disk) is ours to remove; a name that was taken (EEXIST) is not.
      if ((copyError as NodeJS.ErrnoException).code !== 'EEXIST') await unlink(path).catch(() => undefined);
      throw copyError;
    }
  }
  // Published: a temp name left behind (should this fail) is only ours, and the next write removes it.
  await unlink(temp).catch(() => undefined);
}

const NO_HARD_LINKS = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS', 'EMLINK']);

const TEMP_SUFFIX = '.context-lens-tmp';
/** Older than this, a temp file of ours belongs to a run that died (a write takes well under a second). */
const STALE_MS = 10 * 60 * 1000;

/** Deletes temp files of ours that a killed run left in `folder`; best effort, never fails the write. */
async function removeStaleTemps(folder: string): Promise<void> {
  const names = await readdir(folder).catch(() => [] as string[]);
  const now = Date.now();
  for (const name of names) {
    if (!name.startsWith('.') || !name.endsWith(TEMP_SUFFIX)) continue;
    const path = join(folder, name);
    const pid = Number(/\.(\d+)-[0-9a-f-]+\.context-lens-tmp$/.exec(name)?.[1]);
    const stats = await stat(path).catch(() => null);
    if (stats === null || !stats.isFile()) continue;
    if (!processAlive(pid) || now - stats.mtimeMs > STALE_MS) await unlink(path).catch(() => undefined);
  }
}

/** Whether a process with this id is running (on this machine): a temp file of a live writer stays. */
function processAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Makes the rename itself durable; some platforms cannot open folders, which is fine. */
async function syncFolder(folder: string): Promise<void> {
  try {
    const handle = await open(folder, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // Best effort only.
  }
}
