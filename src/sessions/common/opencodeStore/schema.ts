// The database's schema (the `sqlite_schema` table on page 1): each table's root page and column
// names (from its CREATE TABLE text, as SQLite keeps it after an ALTER TABLE ADD COLUMN too), and
// each index's root page and first column, so a query can walk an index instead of a whole table.
import type { BTrees } from './btree';
import { CorruptError } from './pager';
import { decodeRecord, type Value } from './record';

export interface Column {
  name: string;
  /** An INTEGER PRIMARY KEY: stored as NULL, its value is the rowid. */
  rowid: boolean;
  /** What a row written before the column was added holds (its DEFAULT, else NULL). */
  fallback: Value;
  /** Declared PRIMARY KEY on its own line (not the rowid): SQLite indexes it (an automatic index). */
  key?: boolean;
}

export interface Table {
  name: string;
  root: number;
  columns: Column[];
}

export interface Index {
  table: string;
  root: number;
  /** The indexed columns, in order. */
  columns: string[];
}

export interface Schema {
  tables: Map<string, Table>;
  indexes: Index[];
}

/** `name` without SQLite's quotes (`x`, "x", [x], 'x'). */
function unquote(name: string): string {
  const first = name[0];
  const last = name[name.length - 1];
  if ((first === '`' && last === '`') || (first === '"' && last === '"') || (first === "'" && last === "'") || (first === '[' && last === ']'))
    return name.slice(1, -1);
  return name;
}

/** The comma-separated items inside the first top-level parentheses of `sql`, quotes respected. */
function parenthesised(sql: string): { items: string[]; after: string } | null {
  const open = sql.indexOf('(');
  if (open < 0) return null;
  const items: string[] = [];
  let depth = 0;
  let quote: string | null = null;
  let start = open + 1;
  for (let at = open; at < sql.length; at++) {
    const char = sql[at] ?? '';
    if (quote !== null) {
      if (char === quote) quote = null;
      continue;
    }
    if (char === '`' || char === '"' || char === "'") quote = char;
    else if (char === '[') quote = ']';
    else if (char === '(') depth++;
    else if (char === ')' && --depth === 0) {
      items.push(sql.slice(start, at).trim());
      return { items, after: sql.slice(at + 1) };
    } else if (char === ',' && depth === 1) {
      items.push(sql.slice(start, at).trim());
      start = at + 1;
    }
  }
  return null;
}

/** A column definition's leading name (quoted or bare) and the rest. */
function splitName(definition: string): [string, string] {
  const match = /^(`[^`]*`|"[^"]*"|\[[^\]]*\]|'[^']*'|\S+)\s*([\s\S]*)$/.exec(definition);
  return match === null ? [definition, ''] : [unquote(match[1] ?? ''), match[2] ?? ''];
}

/** A DEFAULT that is a plain literal (number, string, NULL); anything else reads as NULL. */
function defaultOf(rest: string): Value {
  const match = /\bDEFAULT\s+(\(?\s*-?[0-9.]+\s*\)?|'(?:[^']|'')*'|NULL)/i.exec(rest);
  const literal = match?.[1]?.replace(/[()\s]/g, '');
  if (literal === undefined || /^NULL$/i.test(literal)) return null;
  if (literal.startsWith("'")) return literal.slice(1, -1).replace(/''/g, "'");
  const number = Number(literal);
  return Number.isFinite(number) ? number : null;
}

const CONSTRAINT = /^(CONSTRAINT|PRIMARY|UNIQUE|CHECK|FOREIGN)\b/i;

export function tableColumns(sql: string, name: string): Column[] {
  const parsed = parenthesised(sql);
  if (parsed === null) throw new CorruptError(`table ${name}: its definition has no column list`);
  if (/\bWITHOUT\s+ROWID\b/i.test(parsed.after)) throw new CorruptError(`table ${name} is WITHOUT ROWID, which this reader does not read`);
  return parsed.items
    .filter((item) => item !== '' && !CONSTRAINT.test(item))
    .map((item) => {
      const [column, rest] = splitName(item);
      const rowid = /^INTEGER\s+PRIMARY\s+KEY\b/i.test(rest.trim()) && !/\bDESC\b/i.test(rest);
      return { name: column, rowid, fallback: defaultOf(rest), ...(!rowid && /\bPRIMARY\s+KEY\b/i.test(rest) ? { key: true } : {}) };
    });
}

const text = (value: Value | undefined): string | null => (typeof value === 'string' ? value : null);

export function readSchema(trees: BTrees, encoding: number): Schema {
  const tables = new Map<string, Table>();
  const indexes: Index[] = [];
  /** Automatic indexes (no SQL) by table: SQLite's own, for a PRIMARY KEY or UNIQUE constraint. */
  const automatic = new Map<string, number[]>();
  trees.scanTable(
    1,
    (cell) => {
      const [type, name, table, root, sql] = decodeRecord(cell.whole(), encoding);
      const rootPage = typeof root === 'number' ? root : 0;
      const definition = text(sql);
      if (type === 'index' && definition === null && text(table) !== null && rootPage > 0 && text(name)?.startsWith('sqlite_autoindex_'))
        automatic.set(text(table) ?? '', [...(automatic.get(text(table) ?? '') ?? []), rootPage]);
      if (text(name) === null || rootPage <= 0 || definition === null) return;
      if (type === 'table') tables.set(text(name) ?? '', { name: text(name) ?? '', root: rootPage, columns: tableColumns(definition, text(name) ?? '') });
      else if (type === 'index' && text(table) !== null) {
        // CREATE INDEX name ON table (col, …): the list after ON.
        const on = /\bON\s+\S+\s*(\([\s\S]*)$/i.exec(definition)?.[1];
        const parsed = on === undefined ? null : parenthesised(on);
        if (parsed !== null)
          indexes.push({ table: text(table) ?? '', root: rootPage, columns: parsed.items.map((item) => unquote(item.split(/\s+/)[0] ?? '')) });
      }
    },
    true,
  );
  // A table whose only automatic index can only be its one PRIMARY KEY column's (OpenCode's text ids):
  // a row found by id through it, not by scanning the table.
  for (const [name, roots] of automatic) {
    const keys = tables.get(name)?.columns.filter((column) => column.key === true) ?? [];
    const [root] = roots;
    if (roots.length === 1 && root !== undefined && keys.length === 1 && keys[0] !== undefined) indexes.push({ table: name, root, columns: [keys[0].name] });
  }
  return { tables, indexes };
}
