// Telling an agent from a file by what it holds, not by how its bytes happen to be spelled: the
// first records are parsed as JSON (a tool that rewrites JSON may add spaces after the colons or
// reorder keys), within a bounded read so a huge or hostile file costs no more than its head.
import { ok, withFile } from '../result';

/** Codex's session_meta carries its base instructions (20 kB and more): the head must hold the whole line. */
const HEAD_BYTES = 1024 * 1024;

/** The JSON objects of the file's first complete lines (up to `max`), blank and unparsable lines skipped; [] when unreadable. */
export async function firstRecords(path: string, max: number): Promise<Record<string, unknown>[]> {
  const read = await withFile(path, async (handle) => {
    const bytes = Buffer.alloc(Math.min(HEAD_BYTES, (await handle.stat()).size));
    const { bytesRead } = await handle.read(bytes, 0, bytes.length, 0);
    return ok(bytes.subarray(0, bytesRead).toString('utf8'));
  });
  if (!read.ok) return [];
  const text = read.value.replace(/^\uFEFF/, '');
  // A line cut by the bound is not a record: only lines with their newline count, or the whole file.
  const complete = text.length < HEAD_BYTES ? text : text.slice(0, text.lastIndexOf('\n') + 1);
  const records: Record<string, unknown>[] = [];
  for (const line of complete.split('\n')) {
    if (records.length >= max) break;
    if (line.trim() === '') continue;
    try {
      const value: unknown = JSON.parse(line);
      if (typeof value === 'object' && value !== null && !Array.isArray(value)) records.push(value as Record<string, unknown>);
    } catch {
      // Torn or damaged: the readers report it with its line number; here it only says nothing.
    }
  }
  return records;
}
