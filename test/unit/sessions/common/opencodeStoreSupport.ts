// What the OpenCode store's tests share: rows as SQLite itself reads them, and a store query that
// must succeed.
import assert from 'node:assert/strict';
import { withStore, type OpencodeStore } from '../../../../src/sessions/common/opencodeStore';
import type { Result } from '../../../../src/sessions/types';
import { sqliteReady } from '../../../support/opencodeWal';

/** Rows by SQLite itself. */
export async function sqlRows(image: Uint8Array, sql: string, params: unknown[] = []): Promise<Record<string, unknown>[]> {
  const SQL = await sqliteReady;
  const db = new SQL.Database(image);
  const [result] = db.exec(sql, params);
  db.close();
  return result === undefined ? [] : result.values.map((values) => Object.fromEntries(result.columns.map((column, index) => [column, values[index]])));
}

/** `query` on the store of `path`, which must succeed. */
export async function read<T>(path: string, query: (store: OpencodeStore) => Result<T>): Promise<T> {
  const result = await withStore(path, query);
  assert.ok(result.ok, result.ok ? '' : result.error.message);
  return result.value;
}
