// A heavy user's OpenCode database, built on demand for the benchmarks (never committed): the
// recorded `compaction` session copied `sessions - 1` times beside the original, each copy its
// recorded turns repeated `repeats` times with fresh ids (ids keep OpenCode's order: repeat, then
// the recorded id) and later times. Built with `node:sqlite` (Node ≥ 22.13) in WAL mode, as
// OpenCode keeps it, then checkpointed and closed so no `-wal` is left.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';

const FIXTURE = join(__dirname, '..', '..', 'test', 'fixtures', 'opencode', 'recorded', 'compaction.db.gz');

interface Statement {
  all(...params: unknown[]): Record<string, unknown>[];
  run(...params: unknown[]): unknown;
}
interface Database {
  exec(sql: string): void;
  prepare(sql: string): Statement;
  close(): void;
}

/** node:sqlite where the runtime has it; a clear message where it does not. */
function sqlite(path: string): Database {
  let module: { DatabaseSync: new (path: string) => Database };
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- a builtin only some runtimes have
    module = require('node:sqlite') as typeof module;
  } catch {
    throw new Error(`building the benchmark database needs node:sqlite (Node ≥ 22.13); this is Node ${process.versions.node}`);
  }
  return new module.DatabaseSync(path);
}

/** Where a copy's number goes in a template id, swapped for it on insert. */
const COPY = '\u0001copy\u0001';
/** `prefix_<copy, 4 digits><repeat, 3 digits><rest of the recorded id>`: sorts by copy, repeat, then as recorded. */
const renamed = (id: string, repeat: number): string => `${id.slice(0, 4)}${COPY}${String(repeat).padStart(3, '0')}${id.slice(4)}`;
const ofCopy = (text: string, copy: number): string => text.replaceAll(COPY, String(copy).padStart(4, '0'));

export interface BuiltDb {
  path: string;
  sessionId: string;
  sessions: number;
}

/** Builds `<folder>/opencode.db` with `sessions` sessions; returns it and one copied session's id. */
export function buildOpencodeDb(folder: string, sessions: number, repeats: number): BuiltDb {
  const path = join(folder, 'opencode.db');
  if (existsSync(path)) throw new Error(`${path} exists`);
  writeFileSync(path, gunzipSync(readFileSync(FIXTURE)));
  const db = sqlite(path);
  db.exec('PRAGMA journal_mode=WAL');
  const [session] = db.prepare('SELECT * FROM session').all();
  if (session === undefined) throw new Error('the fixture has no session');
  const original = String(session.id);
  const messages = db.prepare('SELECT * FROM message WHERE session_id = ? ORDER BY id').all(original);
  const parts = db.prepare('SELECT * FROM part WHERE session_id = ? ORDER BY id').all(original);
  const span = Number(session.time_updated) - Number(session.time_created) + 1000;
  const insertSession = db.prepare(
    `INSERT INTO session (${Object.keys(session).join(', ')}) VALUES (${Object.keys(session)
      .map(() => '?')
      .join(', ')})`,
  );
  const insertMessage = db.prepare('INSERT INTO message (id, session_id, time_created, time_updated, data) VALUES (?, ?, ?, ?, ?)');
  const insertPart = db.prepare('INSERT INTO part (id, message_id, session_id, time_created, time_updated, data) VALUES (?, ?, ?, ?, ?, ?)');
  const ids = [...messages, ...parts].map((row) => String(row.id));
  // Each repeat's rows renamed once; a copy then only swaps in its session id.
  const rename = (text: string, repeat: number): string => ids.reduce((out, id) => out.replaceAll(id, renamed(id, repeat)), text);
  const turns = Array.from({ length: repeats }, (_, repeat) => ({
    messages: messages.map((row) => ({
      ...row,
      time_created: row.time_created,
      time_updated: row.time_updated,
      id: renamed(String(row.id), repeat),
      data: rename(String(row.data), repeat),
    })),
    parts: parts.map((row) => ({
      ...row,
      time_created: row.time_created,
      time_updated: row.time_updated,
      id: renamed(String(row.id), repeat),
      message_id: renamed(String(row.message_id), repeat),
      data: rename(String(row.data), repeat),
    })),
  }));
  let last = '';
  for (let copy = 1; copy < sessions; copy++) {
    const sessionId = ofCopy(renamed(original, 0), copy);
    last = sessionId;
    const shift = copy * span * repeats;
    db.exec('BEGIN');
    insertSession.run(
      ...Object.entries(session).map(([column, value]) =>
        column === 'id' ? sessionId : column === 'time_created' || column === 'time_updated' ? Number(value) + shift : value,
      ),
    );
    turns.forEach((turn, repeat) => {
      const at = (value: unknown): number => Number(value) + shift + repeat * span;
      for (const row of turn.messages)
        insertMessage.run(
          ofCopy(row.id, copy),
          sessionId,
          at(row.time_created),
          at(row.time_updated),
          ofCopy(String(row.data), copy).replaceAll(original, sessionId),
        );
      for (const row of turn.parts)
        insertPart.run(
          ofCopy(row.id, copy),
          ofCopy(row.message_id, copy),
          sessionId,
          at(row.time_created),
          at(row.time_updated),
          ofCopy(String(row.data), copy).replaceAll(original, sessionId),
        );
    });
    db.exec('COMMIT');
  }
  db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
  db.close();
  return { path, sessionId: last, sessions };
}
