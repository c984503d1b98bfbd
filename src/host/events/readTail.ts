// The last bytes of an events file as text, starting at a whole line: another process appends to
// these files and nothing rotates them, so a reader takes only their tail.
import { readRange } from '../../sessions/common/lines';
import { openRegular } from '../../sessions/result';

/** Thousands of events, far more than the panel shows, whatever the file's size. */
export const EVENTS_TAIL_BYTES = 1024 * 1024;

/** The text of the file's last `maxBytes` from its first whole line; '' for a missing file. Other read errors are thrown. */
export async function readTail(path: string, maxBytes = EVENTS_TAIL_BYTES): Promise<string> {
  let handle;
  try {
    // A named pipe at the events path would block a plain open forever: regular files only.
    handle = await openRegular(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return '';
    throw error;
  }
  try {
    const { size } = await handle.stat();
    const start = Math.max(0, size - maxBytes);
    let bytes = await readRange(handle, start, size);
    // Starting mid-file lands inside a line (maybe inside a character): skip to the next one.
    if (start > 0) bytes = bytes.subarray(bytes.indexOf(0x0a) + 1 || bytes.length);
    return bytes.toString('utf8');
  } finally {
    await handle.close();
  }
}
