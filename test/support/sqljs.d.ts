// The few parts of sql.js (the WebAssembly build of SQLite) the tests and fixture scripts use to build databases; the package ships no types.
declare module 'sql.js/dist/sql-wasm.js' {
  export interface QueryResults {
    columns: string[];
    values: unknown[][];
  }
  export interface Database {
    exec(sql: string, params?: unknown[]): QueryResults[];
    export(): Uint8Array;
    close(): void;
  }
  export interface SqlJsStatic {
    Database: new (data?: Uint8Array) => Database;
  }
  export default function initSqlJs(options: { wasmBinary: Uint8Array }): Promise<SqlJsStatic>;
}
