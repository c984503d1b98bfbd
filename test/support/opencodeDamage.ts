// OpenCode databases damaged below the row level, as a torn copy or a hostile file could be: a
// b-tree page pointing back at itself, a row claiming a payload far larger than the file, an
// overflow chain looping on itself. Pages are found by the file format, independently of src/'s
// reader: the `part` table's root from sqlite_schema (through sql.js), then its right-most path.
import { imageAfter, sqliteReady } from './opencodeWal';

const u32 = (bytes: Uint8Array, at: number): number => new DataView(bytes.buffer, bytes.byteOffset).getUint32(at);
const setU32 = (bytes: Uint8Array, at: number, value: number): void => new DataView(bytes.buffer, bytes.byteOffset).setUint32(at, value);
const u16 = (bytes: Uint8Array, at: number): number => ((bytes[at] ?? 0) << 8) | (bytes[at + 1] ?? 0);

function pageSizeOf(image: Uint8Array): number {
  const stored = u16(image, 16);
  return stored === 1 ? 65536 : stored;
}

async function rootOf(image: Uint8Array, table: string): Promise<number> {
  const SQL = await sqliteReady;
  const db = new SQL.Database(image);
  const [result] = db.exec('SELECT rootpage FROM sqlite_schema WHERE name = ?', [table]);
  db.close();
  return Number(result?.values[0]?.[0]);
}

/** `base` with `count` more parts of `sessionId`, each `size` bytes of data: the part table grows interior pages. */
export async function withParts(base: Uint8Array, sessionId: string, count: number, size: number): Promise<Uint8Array> {
  const rows = Array.from(
    { length: count },
    (_, index) =>
      `('prt_zz${String(index).padStart(6, '0')}', 'msg_none', '${sessionId}', ${index}, ${index}, '{"type":"text","text":"' || printf('%.${size}c', 'x') || '"}')`,
  );
  return imageAfter(base, `INSERT INTO part (id, message_id, session_id, time_created, time_updated, data) VALUES ${rows.join(', ')}`);
}

/** The part table's root (an interior page) made to name itself as its first child: a cycle. */
export async function btreeCycle(image: Uint8Array): Promise<Uint8Array> {
  const root = await rootOf(image, 'part');
  const pageSize = pageSizeOf(image);
  const page = image.subarray((root - 1) * pageSize, root * pageSize);
  if (page[0] !== 5) throw new Error(`part's root ${root} is not an interior table page (type ${page[0]}): add parts first`);
  setU32(page, u16(page, 12), root);
  return image;
}

/** The last cell of the part table's right-most leaf: its page and offset. */
async function lastPartCell(image: Uint8Array): Promise<{ page: Uint8Array; at: number }> {
  const pageSize = pageSizeOf(image);
  let number = await rootOf(image, 'part');
  for (;;) {
    const page = image.subarray((number - 1) * pageSize, number * pageSize);
    if (page[0] === 13) return { page, at: u16(page, 8 + 2 * (u16(page, 3) - 1)) };
    number = u32(page, 8);
  }
}

/**
 * `image` with one more part whose data (2.2 MB: its size a 4-byte varint) overflows, then damaged:
 * `claim` its payload size rewritten to 268,435,455 bytes (256 MiB); `loop` its overflow chain's
 * second page pointing back at the first.
 */
export async function overflowDamage(image: Uint8Array, sessionId: string, damage: 'claim' | 'loop'): Promise<Uint8Array> {
  const grown = await withParts(image, sessionId, 1, 2_200_000);
  const { page, at } = await lastPartCell(grown);
  if (damage === 'claim') {
    if ((page[at + 3] ?? 0) & 0x80 || !((page[at + 2] ?? 0) & 0x80)) throw new Error('the payload size is not a 4-byte varint');
    page.set([0xff, 0xff, 0xff, 0x7f], at);
    return grown;
  }
  // The payload size varint, the rowid varint, the bytes kept on the page, then the first overflow page.
  let payload = 0;
  let cursor = at;
  for (;;) {
    const byte = page[cursor++] ?? 0;
    payload = payload * 128 + (byte & 0x7f);
    if ((byte & 0x80) === 0) break;
  }
  while ((page[cursor] ?? 0) & 0x80) cursor++;
  cursor++;
  const pageSize = pageSizeOf(grown);
  const usable = pageSize - (grown[20] ?? 0);
  const min = Math.floor(((usable - 12) * 32) / 255) - 23;
  const kept = min + ((payload - min) % (usable - 4));
  const local = kept <= usable - 35 ? kept : min;
  const first = u32(page, cursor + local);
  const second = u32(grown.subarray((first - 1) * pageSize), 0);
  setU32(grown.subarray((second - 1) * pageSize), 0, first);
  return grown;
}
