// SQLite's b-trees, read page by page (https://www.sqlite.org/fileformat2.html#b_tree_pages, facts
// only): a table's rows by rowid, a whole table's leaf cells, an index's entries equal to a text key.
// Hostile pages end in a CorruptError, never a hang: a page met twice in one walk is a cycle, a tree
// deeper than SQLite ever builds is refused, an overflow chain is followed for no more pages than
// its payload needs, and no payload larger than MAX_PAYLOAD is ever allocated.
import { CorruptError, type Pager } from './pager';
import { serialSize, serialTypes, varint } from './record';

/** The largest row read (a part holding an image as a data URL is a few megabytes). */
export const MAX_PAYLOAD = 64 * 1024 * 1024;
/** SQLite's trees stay far below this depth even at its largest database size. */
const MAX_DEPTH = 40;

const INTERIOR_INDEX = 2;
const INTERIOR_TABLE = 5;
const LEAF_INDEX = 10;
const LEAF_TABLE = 13;

/** A payload as a page holds it: its first bytes there, the rest (if any) in an overflow chain read on demand. */
export class Payload {
  constructor(
    private readonly trees: BTrees,
    private readonly pageNumber: number,
    /** The bytes on the page: the record's start (its header, in practice). */
    readonly local: Uint8Array,
    readonly payloadSize: number,
    private readonly firstOverflow: number,
  ) {}

  /** The whole record (the local bytes themselves when nothing overflows). */
  whole(): Uint8Array {
    return this.local.length === this.payloadSize ? this.local : this.trees.overflow(this.pageNumber, this.local, this.firstOverflow, this.payloadSize);
  }
}

/** One leaf cell of a table: its rowid and its record. */
export class TableCell extends Payload {
  rowid = 0;
}

interface PageView {
  bytes: Uint8Array;
  type: number;
  cells: number[];
  right: number;
}

export class BTrees {
  constructor(private readonly pager: Pager) {}

  private where(number: number): string {
    return `${this.pager.path}: page ${number}`;
  }

  /** A page's cells; `once`: a leaf read for one look (a scan's), its bytes valid until the next such read. */
  private view(number: number, once = false): PageView {
    const bytes = once ? this.pager.pageOnce(number) : this.pager.page(number);
    const base = number === 1 ? 100 : 0;
    const type = bytes[base] ?? 0;
    if (type !== INTERIOR_INDEX && type !== INTERIOR_TABLE && type !== LEAF_INDEX && type !== LEAF_TABLE)
      throw new CorruptError(`${this.where(number)} is not a b-tree page (type ${type})`);
    const interior = type === INTERIOR_INDEX || type === INTERIOR_TABLE;
    const headerSize = interior ? 12 : 8;
    const count = ((bytes[base + 3] ?? 0) << 8) | (bytes[base + 4] ?? 0);
    const pointers = base + headerSize;
    if (pointers + 2 * count > this.pager.usable) throw new CorruptError(`${this.where(number)} claims ${count} cells, more than fit`);
    const cells: number[] = [];
    for (let index = 0; index < count; index++) {
      const at = ((bytes[pointers + 2 * index] ?? 0) << 8) | (bytes[pointers + 2 * index + 1] ?? 0);
      if (at < pointers + 2 * count || at >= this.pager.usable) throw new CorruptError(`${this.where(number)}: cell ${index} points outside the page`);
      cells.push(at);
    }
    const right = interior ? u32(bytes, base + 8) : 0;
    return { bytes, type, cells, right };
  }

  /** Bytes of a payload kept on the page itself (the rest overflows), as the file format fixes it. */
  private localSize(payload: number, tableLeaf: boolean): number {
    const usable = this.pager.usable;
    const max = tableLeaf ? usable - 35 : Math.floor(((usable - 12) * 64) / 255) - 23;
    if (payload <= max) return payload;
    const min = Math.floor(((usable - 12) * 32) / 255) - 23;
    const size = min + ((payload - min) % (usable - 4));
    return size <= max ? size : min;
  }

  /** The payload at `at` on `page` (its local bytes, and where its overflow chain starts). */
  private payload<T extends Payload>(
    make: new (...args: ConstructorParameters<typeof Payload>) => T,
    number: number,
    page: Uint8Array,
    at: number,
    size: number,
    tableLeaf: boolean,
  ): T {
    const localSize = this.localSize(size, tableLeaf);
    if (at + localSize > this.pager.usable) throw new CorruptError(`${this.where(number)}: a cell runs past the page`);
    const local = page.subarray(at, at + localSize);
    if (localSize === size) return new make(this, number, local, size, 0);
    if (at + localSize + 4 > this.pager.usable) throw new CorruptError(`${this.where(number)}: a cell's overflow pointer runs past the page`);
    return new make(this, number, local, size, u32(page, at + localSize));
  }

  /** The whole payload: `local` then the chain from `first`, checked page by page. */
  overflow(number: number, local: Uint8Array, first: number, size: number): Uint8Array {
    const room = this.pager.usable - 4;
    if (size > MAX_PAYLOAD) throw new CorruptError(`${this.where(number)}: a row of ${size} bytes, over the ${MAX_PAYLOAD}-byte limit of this reader`);
    const pages = Math.ceil((size - local.length) / room);
    if (pages > this.pager.pageCount)
      throw new CorruptError(`${this.where(number)}: a row of ${size} bytes needs ${pages} overflow pages, more than the database has`);
    const whole = new Uint8Array(size);
    whole.set(local);
    let filled = local.length;
    let next = first;
    for (let step = 0; step < pages; step++) {
      if (next === 0) throw new CorruptError(`${this.where(number)}: an overflow chain ends after ${step} of its ${pages} pages`);
      const page = this.pager.page(next);
      const take = Math.min(room, size - filled);
      whole.set(page.subarray(4, 4 + take), filled);
      filled += take;
      next = u32(page, 0);
    }
    return whole;
  }

  /**
   * Every leaf cell of the table whose root is `root`, in rowid order; a cell's bytes are valid only
   * during its visit. `small`: a table read on every open (the schema), its pages kept like an index's.
   */
  scanTable(root: number, visit: (cell: TableCell) => void, small = false): void {
    const seen = new Set<number>();
    const walk = (number: number, depth: number): void => {
      this.enter(number, depth, seen);
      let page = this.view(number, !small);
      // An interior page outlives the reads of its children: its own copy.
      if (page.type !== LEAF_TABLE) page = { ...page, bytes: page.bytes.slice() };
      if (page.type === LEAF_TABLE) {
        for (const at of page.cells) visit(this.tableCell(number, page.bytes, at));
        return;
      }
      if (page.type !== INTERIOR_TABLE) throw new CorruptError(`${this.where(number)} is an index page inside a table`);
      for (const at of page.cells) walk(u32(page.bytes, at), depth + 1);
      walk(page.right, depth + 1);
    };
    walk(root, 0);
  }

  /** The row with `rowid` in the table whose root is `root`, or null. */
  findRow(root: number, rowid: number): TableCell | null {
    const seen = new Set<number>();
    let number = root;
    for (let depth = 0; ; depth++) {
      this.enter(number, depth, seen);
      const page = this.view(number);
      if (page.type === LEAF_TABLE) {
        for (const at of page.cells) {
          const cell = this.tableCell(number, page.bytes, at);
          if (cell.rowid === rowid) return cell;
        }
        return null;
      }
      if (page.type !== INTERIOR_TABLE) throw new CorruptError(`${this.where(number)} is an index page inside a table`);
      // The first cell whose key is at least `rowid` leads to it; past every key, the right-most child.
      let low = 0;
      let high = page.cells.length;
      while (low < high) {
        const middle = (low + high) >> 1;
        const at = page.cells[middle] ?? 0;
        if (varint(page.bytes, at + 4)[0] < rowid) low = middle + 1;
        else high = middle;
      }
      const at = page.cells[low];
      number = at === undefined ? page.right : u32(page.bytes, at);
    }
  }

  /** Rowids of the index entries whose first column is the text `key` (UTF-8 bytes), in index order. */
  indexEquals(root: number, key: Uint8Array): number[] {
    const rowids: number[] = [];
    const seen = new Set<number>();
    const entry = (number: number, bytes: Uint8Array, at: number): { order: number; payload: Payload } => {
      const [size, used] = varint(bytes, at);
      const payload = this.payload(Payload, number, bytes, at + used, size, false);
      const order = compareFirst(payload.local, key) ?? compareFirst(payload.whole(), key);
      if (order === null) throw new CorruptError(`${this.where(number)}: an index entry without columns`);
      return { order, payload };
    };
    const walk = (number: number, depth: number): boolean => {
      this.enter(number, depth, seen);
      const page = this.view(number);
      const interior = page.type === INTERIOR_INDEX;
      if (!interior && page.type !== LEAF_INDEX) throw new CorruptError(`${this.where(number)} is a table page inside an index`);
      for (const at of page.cells) {
        const found = entry(number, page.bytes, interior ? at + 4 : at);
        if (found.order < 0) continue;
        // Entries equal to the key may end in the child left of the first entry not below it.
        if (interior && walk(u32(page.bytes, at), depth + 1)) return true;
        if (found.order > 0) return true;
        rowids.push(lastInteger(found.payload.whole(), this.where(number)));
      }
      return interior ? walk(page.right, depth + 1) : false;
    };
    walk(root, 0);
    return rowids;
  }

  private tableCell(number: number, bytes: Uint8Array, at: number): TableCell {
    const [size, sizeLength] = varint(bytes, at);
    const [rowid, rowidLength] = varint(bytes, at + sizeLength);
    const cell = this.payload(TableCell, number, bytes, at + sizeLength + rowidLength, size, true);
    cell.rowid = rowid;
    return cell;
  }

  /** A page entered once per walk and no deeper than any real tree. */
  private enter(number: number, depth: number, seen: Set<number>): void {
    if (depth > MAX_DEPTH) throw new CorruptError(`${this.where(number)}: a b-tree deeper than ${MAX_DEPTH} levels`);
    if (seen.has(number)) throw new CorruptError(`${this.where(number)} is reached twice in one b-tree: a cycle`);
    seen.add(number);
  }
}

export function u32(bytes: Uint8Array, at: number): number {
  if (at + 4 > bytes.length) throw new CorruptError(`a page number runs past its page at byte ${at}`);
  return (((bytes[at] ?? 0) << 24) >>> 0) + ((bytes[at + 1] ?? 0) << 16) + ((bytes[at + 2] ?? 0) << 8) + (bytes[at + 3] ?? 0);
}

/** How a record's first column orders against the text `key` under BINARY (null: its bytes are not all here). */
function compareFirst(record: Uint8Array, key: Uint8Array): number | null {
  const header = serialTypes(record);
  if (header === null) return null;
  const type = header.types[0];
  if (type === undefined) return null;
  // NULL and numbers sort before any text, blobs after.
  if (type < 12) return -1;
  if (type % 2 === 0) return 1;
  const size = serialSize(type);
  const start = header.bodyStart;
  if (start + size > record.length) return null;
  const shared = Math.min(size, key.length);
  for (let index = 0; index < shared; index++) {
    const difference = (record[start + index] ?? 0) - (key[index] ?? 0);
    if (difference !== 0) return difference;
  }
  return size - key.length;
}

/** The rowid an index entry ends with. */
function lastInteger(record: Uint8Array, where: string): number {
  const header = serialTypes(record);
  const type = header?.types[header.types.length - 1];
  if (header === null || type === undefined || type < 1 || type > 9 || type === 7) throw new CorruptError(`${where}: an index entry does not end in a rowid`);
  let at = header.bodyStart;
  for (const other of header.types.slice(0, -1)) at += serialSize(other);
  const size = serialSize(type);
  if (at + size > record.length) throw new CorruptError(`${where}: an index entry runs past its bytes`);
  if (type === 8) return 0;
  if (type === 9) return 1;
  return signed(record.subarray(at, at + size));
}

function signed(bytes: Uint8Array): number {
  let value = 0;
  for (const byte of bytes) value = value * 256 + byte;
  const negative = bytes.length > 0 && (bytes[0] ?? 0) >= 0x80;
  return negative ? value - 2 ** (8 * bytes.length) : value;
}
