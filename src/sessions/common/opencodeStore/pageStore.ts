// The store read page by page (pager.ts, btree.ts): a session's rows through the `session_id`
// indexes OpenCode keeps (its messages and parts only), the session list from the small `session`
// table, sizes from the `part` table's leaf pages without their overflow. Memory is a few pages and
// the rows asked for, whatever the database weighs.
import { fail, ok } from '../../result';
import type { Result } from '../../types';
import { BTrees, type TableCell } from './btree';
import { ChangedError, CorruptError, type Pager } from './pager';
import { decodeRecord, serialSize, serialTypes, type Value } from './record';
import { readSchema, type Schema, type Table } from './schema';
import { byText, matches, newestFirst, type OpencodeStore, type SessionFilter, type StoreRow } from './store';

/** Up to this many sessions, sizes come through the index; more, from one pass over the part table. */
const SIZES_BY_INDEX = 16;

export class PageStore implements OpencodeStore {
  private readonly trees: BTrees;
  private readonly schema: Schema;
  readonly walFrames: number;
  readonly walProblem: string | null;

  constructor(private readonly pager: Pager) {
    this.trees = new BTrees(pager);
    this.schema = readSchema(this.trees, pager.encoding);
    this.walFrames = pager.log.commits === 0 ? 0 : pager.log.frames.size;
    this.walProblem = pager.log.problem === null ? null : `${pager.path}-wal: ${pager.log.problem}`;
  }

  get path(): string {
    return this.pager.path;
  }

  hasTable(name: string): boolean {
    return this.schema.tables.has(name);
  }

  private table(name: string): Table {
    const table = this.schema.tables.get(name);
    if (table === undefined) throw new MissingTable(`${this.pager.path}: no such table: ${name}`);
    return table;
  }

  private row(table: Table, cell: TableCell): StoreRow {
    const values = decodeRecord(cell.whole(), this.pager.encoding);
    const row: StoreRow = {};
    table.columns.forEach((column, index) => {
      const value: Value | undefined = values[index];
      row[column.name] = column.rowid ? cell.rowid : value === undefined ? column.fallback : value;
    });
    return row;
  }

  /** Rows of `table` whose `session_id` is `sessionId`: through an index led by that column, else a scan. */
  private bySession(name: string, sessionId: string): StoreRow[] {
    return this.whereEquals(name, 'session_id', sessionId).sort((a, b) => byText(String(a.id ?? ''), String(b.id ?? '')));
  }

  /** Rows of table `name` whose text `column` is `value`: through an index led by that column, else a scan. */
  private whereEquals(name: string, column: string, value: string): StoreRow[] {
    const table = this.table(name);
    const index = this.schema.indexes.find((candidate) => candidate.table === name && candidate.columns[0] === column);
    const rows: StoreRow[] = [];
    if (index !== undefined && this.pager.encoding === 1) {
      for (const rowid of this.trees.indexEquals(index.root, new TextEncoder().encode(value))) {
        const cell = this.trees.findRow(table.root, rowid);
        if (cell === null) throw new CorruptError(`${this.pager.path}: index of ${name} names row ${rowid}, which the table lacks`);
        rows.push(this.row(table, cell));
      }
    } else {
      this.trees.scanTable(table.root, (cell) => {
        const row = this.row(table, cell);
        if (row[column] === value) rows.push(row);
      });
    }
    return rows;
  }

  sessions(filter: SessionFilter = {}): Result<StoreRow[]> {
    return this.guard(() => {
      // One session, or one's children: through the id's or parent's index (a followed session is
      // read on every change; the table holds every session of every project).
      if (filter.id !== undefined || filter.parentId !== undefined) {
        const found = filter.id !== undefined ? this.whereEquals('session', 'id', filter.id) : this.whereEquals('session', 'parent_id', filter.parentId ?? '');
        return found.filter((row) => matches(row, filter)).sort(newestFirst);
      }
      const table = this.table('session');
      const rows: StoreRow[] = [];
      this.trees.scanTable(table.root, (cell) => {
        const row = this.row(table, cell);
        if (matches(row, filter)) rows.push(row);
      });
      return rows.sort(newestFirst);
    });
  }

  sessionBytes(sessionIds: readonly string[]): Result<Map<string, number>> {
    return this.guard(() => {
      const table = this.table('part');
      const sizes = new Map<string, number>(sessionIds.map((id) => [id, 0]));
      const sessionColumn = table.columns.findIndex((column) => column.name === 'session_id');
      const dataColumn = table.columns.findIndex((column) => column.name === 'data');
      if (sessionColumn < 0 || dataColumn < 0) throw new CorruptError(`${this.pager.path}: table part has no session_id or data column`);
      if (sessionIds.length <= SIZES_BY_INDEX) {
        for (const id of sessionIds)
          sizes.set(
            id,
            this.bySession('part', id).reduce((sum, row) => sum + textLength(row.data), 0),
          );
        return sizes;
      }
      // One pass over the leaf pages: each cell's header says the data's length, its overflow is never read.
      const sessionOf = new ColumnReader(sessionColumn, this.pager.encoding);
      this.trees.scanTable(table.root, (cell) => {
        const header = serialTypes(cell.local) ?? serialTypes(cell.whole());
        if (header === null) return;
        const session = sessionOf.read(cell, header);
        const type = header.types[dataColumn];
        if (session === null || type === undefined || !sizes.has(session)) return;
        sizes.set(session, (sizes.get(session) ?? 0) + dataLength(type));
      });
      return sizes;
    });
  }

  messages(sessionId: string): Result<StoreRow[]> {
    return this.guard(() => this.bySession('message', sessionId));
  }

  parts(sessionId: string): Result<StoreRow[]> {
    return this.guard(() => this.bySession('part', sessionId));
  }

  close(): void {
    this.pager.close();
  }

  /** Set when a read failed while the files were changing: withStore then reads again. */
  interrupted = false;

  /** A corrupt page or a missing table becomes a failed result naming the database. */
  private guard<T>(read: () => T): Result<T> {
    try {
      return ok(read());
    } catch (error) {
      if (error instanceof MissingTable) return fail('invalid-input', error.message, this.pager.path);
      const changing = error instanceof ChangedError || (error instanceof CorruptError && this.pager.changed());
      if (changing) this.interrupted = true;
      if (error instanceof CorruptError || error instanceof ChangedError) {
        const message = error.message.startsWith(this.pager.path) ? error.message : `${this.pager.path}: ${error.message}`;
        return fail(changing ? 'io' : 'invalid-input', changing ? `${message} (the database changed while it was read)` : message, this.pager.path);
      }
      throw error;
    }
  }
}

class MissingTable extends Error {}

/** A value's bytes as stored (UTF-8 text in OpenCode's databases): what the scan below reads from serial types. */
function textLength(value: unknown): number {
  return typeof value === 'string' ? Buffer.byteLength(value, 'utf8') : value instanceof Uint8Array ? value.length : 0;
}

/** The data's stored bytes, from its serial type alone. */
const dataLength = (type: number): number => (type < 12 ? 0 : serialSize(type));

/** One text column of a cell, from its bytes on the page when they are there. */
/**
 * One text column of a scan's cells, from their bytes on the page when they are there. A table's
 * rows of one session lie together, so the text is decoded only when its bytes differ from the
 * previous cell's: decoding each of a few hundred thousand cells would be most of the scan's time.
 */
class ColumnReader {
  private lastBytes = new Uint8Array(0);
  private lastText: string | null = null;

  constructor(
    private readonly column: number,
    private readonly encoding: number,
  ) {}

  read(cell: TableCell, header: { types: number[]; bodyStart: number }): string | null {
    let at = header.bodyStart;
    for (let index = 0; index < this.column; index++) at += serialSize(header.types[index] ?? 0);
    const type = header.types[this.column];
    if (type === undefined || type < 13 || type % 2 === 0) return null;
    const size = serialSize(type);
    const bytes = (at + size <= cell.local.length ? cell.local : cell.whole()).subarray(at, at + size);
    if (this.lastText !== null && sameBytes(bytes, this.lastBytes)) return this.lastText;
    this.lastBytes = bytes.slice();
    this.lastText = decodeText(bytes, this.encoding);
    return this.lastText;
  }
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let index = 0; index < a.length; index++) if (a[index] !== b[index]) return false;
  return true;
}

const decoders = new Map<number, InstanceType<typeof TextDecoder>>();
function decodeText(bytes: Uint8Array, encoding: number): string {
  const label = encoding === 2 ? 'utf-16le' : encoding === 3 ? 'utf-16be' : 'utf-8';
  const decoder = decoders.get(encoding) ?? new TextDecoder(label);
  decoders.set(encoding, decoder);
  return decoder.decode(bytes);
}
