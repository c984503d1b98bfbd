// Hostile session stores for issue 40's probes: an OpenCode database whose log lies in its header or
// its commit frames (each frame's checksum made right, so only the claim is false), a database
// truncated or with a row of broken JSON, a b-tree page cycle, a row claiming 256 MiB, a looping overflow chain; a Gemini chat of many rewinds and one whose `$set` names
// `__proto__`. Each is written into a folder of the caller's, as the agent would leave it.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { btreeCycle, overflowDamage, withParts } from '../opencodeDamage';
import { imageAfter, resealWal, unpackFixture, walBetween } from '../opencodeWal';

/** The recorded fixture's one session. */
export const OPENCODE_SESSION = 'ses_deb3ad31fffe8qZSLwam00riJe';

export type OpencodeDamage =
  'page-size-1000' | 'page-size-1001' | 'commit-1000000-pages' | 'truncated' | 'invalid-json-row' | 'btree-cycle' | 'row-of-256-mib' | 'overflow-loop';

/** `<folder>/opencode.db` (and `-wal`) from the recorded `plain` session, damaged as named; returns the database's path. */
export async function damagedOpencode(folder: string, damage: OpencodeDamage): Promise<string> {
  mkdirSync(folder, { recursive: true });
  const db = join(folder, 'opencode.db');
  const base = unpackFixture('plain', db);
  if (damage === 'truncated') {
    writeFileSync(db, base.subarray(0, Math.floor(base.length / 2)));
    return db;
  }
  if (damage === 'btree-cycle') {
    writeFileSync(db, await btreeCycle(await withParts(base, OPENCODE_SESSION, 400, 300)));
    return db;
  }
  if (damage === 'row-of-256-mib' || damage === 'overflow-loop') {
    writeFileSync(db, await overflowDamage(base, OPENCODE_SESSION, damage === 'row-of-256-mib' ? 'claim' : 'loop'));
    return db;
  }
  if (damage === 'invalid-json-row') {
    // The newest message's data cut mid-value: the rest of the session must still be read.
    writeFileSync(db, await imageAfter(base, 'UPDATE message SET data = substr(data, 1, 20) WHERE id = (SELECT max(id) FROM message)'));
    return db;
  }
  const wal = walBetween(base, await imageAfter(base, "UPDATE session SET title = 'Renamed by the log'"));
  const view = new DataView(wal.buffer);
  const pageSize = view.getUint32(8);
  if (damage === 'commit-1000000-pages') {
    for (let at = 32; at + 24 + pageSize <= wal.length; at += 24 + pageSize) if (view.getUint32(at + 4) !== 0) view.setUint32(at + 4, 1_000_000);
    writeFileSync(`${db}-wal`, resealWal(wal, pageSize));
  } else {
    const lied = damage === 'page-size-1000' ? 1000 : 1001;
    view.setUint32(8, lied);
    writeFileSync(`${db}-wal`, resealWal(wal, lied));
  }
  return db;
}

const HEADER = {
  sessionId: '0badc0de-1111-4222-8333-444455556666',
  projectHash: 'f'.repeat(64),
  startTime: '2026-11-25T10:00:00.000Z',
  lastUpdated: '2026-11-25T10:00:00.000Z',
};
const message = (id: string, text: string): string => `${JSON.stringify({ id, timestamp: '2026-11-25T10:00:01.000Z', type: 'user', content: [{ text }] })}\n`;

/** A Gemini home holding one chat, `lines` after its header; returns the home (for --gemini-home). */
function geminiHome(folder: string, body: string, header: Record<string, unknown> = HEADER): string {
  const chats = join(folder, '.gemini', 'tmp', 'app', 'chats');
  mkdirSync(chats, { recursive: true });
  writeFileSync(join(folder, '.gemini', 'tmp', 'app', '.project_root'), folder);
  writeFileSync(join(chats, 'session-2026-11-25T10-00-0badc0de.jsonl'), `${JSON.stringify(header)}\n${body}`);
  return folder;
}

/**
 * `kept` messages, then `rewinds` times a message written and rewound away (as /rewind does): each
 * rewind lands at the end of a long history. The live history is the `kept` messages.
 */
export function rewindingGemini(folder: string, kept: number, rewinds: number): string {
  const parts: string[] = [];
  for (let index = 0; index < kept; index++) parts.push(message(`m${index}`, `prompt ${index}`));
  for (let index = 0; index < rewinds; index++) parts.push(message(`r${index}`, 'rewound'), `${JSON.stringify({ $rewindTo: `r${index}` })}\n`);
  return geminiHome(folder, parts.join(''));
}

/** A chat whose `$set` names `__proto__` with a summary and a subagent kind: neither may become the session's. */
export function protoGemini(folder: string): string {
  return geminiHome(
    folder,
    `${message('m0', 'the first prompt')}${JSON.stringify({ $set: JSON.parse('{"__proto__":{"summary":"INJECTED","kind":"subagent"},"constructor":{"prototype":{"polluted":true}}}') as unknown })}\n`,
  );
}
