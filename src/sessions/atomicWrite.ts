// The one way Context Lens writes next to an agent's files: a temp file in the same folder (same
// file system), fsync, then a rename over the final name, so nobody ever sees half a file.
import { randomUUID } from 'node:crypto';
import { open, rename, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { failFromError, ok } from './result';
import type { Result } from './types';

/** `mode` applies to a new file; rename keeps the temp file's mode, so pass the old one to keep it. */
export async function writeAtomically(path: string, text: string, mode = 0o600): Promise<Result<void>> {
  const temp = join(dirname(path), `.${basename(path)}.${process.pid}-${randomUUID()}.tmp`);
  try {
    const handle = await open(temp, 'wx', mode);
    try {
      await handle.writeFile(text, 'utf8');
      await handle.chmod(mode);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, path);
    await syncFolder(dirname(path));
    return ok(undefined);
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    return failFromError(error, path);
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
