// Telling an agent from a file by what it holds, not by how its bytes happen to be spelled: the
// first records are parsed as JSON (a tool that rewrites JSON may add spaces after the colons or
// reorder keys), within a bounded read so a huge or hostile file costs no more than its head.
import { ok, withFile } from '../result';

/** Codex's session_meta carries its base instructions (20 kB and more): the head may need this much. */
const HEAD_BYTES = 1024 * 1024;
/** What most files need: read first, and more only while the wanted lines are not complete. */
const FIRST_READ_BYTES = 64 * 1024;

/** The JSON objects of the file's first complete lines (up to `max`), blank and unparsable lines skipped; [] when unreadable. */
export async function firstRecords(path: string, max: number): Promise<Record<string, unknown>[]> {
  const read = await withFile(path, async (handle) => {
    const size = (await handle.stat()).size;
    let bytes = Buffer.alloc(0);
    for (let want = Math.min(FIRST_READ_BYTES, size); ; want = Math.min(want * 4, HEAD_BYTES, size)) {
      const more = Buffer.alloc(want - bytes.length);
      const { bytesRead } = await handle.read(more, 0, more.length, bytes.length);
      bytes = Buffer.concat([bytes, more.subarray(0, bytesRead)]);
      const whole = bytesRead < more.length || bytes.length >= size;
      const records = parseHead(bytes.toString('utf8'), whole, max);
      // Enough once `max` records are read, the whole file is in, or the bound is reached.
      if (whole || bytes.length >= HEAD_BYTES || records.length >= max) return ok(records);
    }
  });
  return read.ok ? read.value : [];
}

function parseHead(head: string, whole: boolean, max: number): Record<string, unknown>[] {
  const text = head.replace(/^\uFEFF/, '');
  // A line cut by the read is not a record: only lines with their newline count, or the whole file.
  const complete = whole ? text : text.slice(0, text.lastIndexOf('\n') + 1);
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
