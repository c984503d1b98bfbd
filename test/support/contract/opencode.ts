// OpenCode for the adapter contract: the sessions the real CLI 1.18.33 recorded (one database per
// fixture), their last call's prompt as the stand-in reported it, and a turn appended the way
// OpenCode commits one: new rows in the log (`-wal`), the database file untouched. A fork goes in
// through the real `opencode import` (the pinned CLI from the tool cache, put on PATH, offline).
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { ensureOpencodeCli } from '../opencodeCli';
import { unpackFixture, walBetween } from '../opencodeWal';
import { inWalMode, sessionIdOf, withTurn } from './opencodeFamily';
import type { ContractSubject, ScratchSession } from './subject';

const unpacked = mkdtempSync(join(tmpdir(), 'cl-contract-opencode-'));
// The subject has no end of its own: its unpacked databases go when the test process does.
process.on('exit', () => rmSync(unpacked, { recursive: true, force: true }));
const where = (db: string) => ({ homes: { opencode: [db] } });

/** Each recorded session and the prompt of its last call (input + cache.read + cache.write), from the stand-in's usage. */
const RECORDED: readonly { fixture: string; id: string; fill: number }[] = [
  { fixture: 'plain', id: 'ses_deb3ad31fffe8qZSLwam00riJe', fill: 26 + 7337 },
  { fixture: 'tools', id: 'ses_deb39dd53ffeWdcd3LUiVfojve', fill: 7683 },
  { fixture: 'compaction', id: 'ses_deb3931d1ffebhOPh4OagtOIAt', fill: 25 + 7397 },
  { fixture: 'subagent', id: 'ses_deb3703d5ffeUBiscE0dhB1nGv', fill: 7444 },
  { fixture: 'subagent', id: 'ses_deb368e81ffe6GNF189i4vsph3', fill: 5702 },
];

function database(fixture: string, dir: string): string {
  const db = join(dir, fixture, 'opencode.db');
  mkdirSync(dirname(db), { recursive: true });
  unpackFixture(fixture, db);
  return db;
}

let ownTmp = false;

/** `opencode import` as a person would run it: on PATH, here offline and with private folders. */
function putCliOnPath(dir: string): void {
  const binary = ensureOpencodeCli();
  if (!(process.env.PATH ?? '').split(delimiter).includes(dirname(binary))) process.env.PATH = `${dirname(binary)}${delimiter}${process.env.PATH ?? ''}`;
  for (const name of ['XDG_DATA_HOME', 'XDG_STATE_HOME', 'XDG_CACHE_HOME']) process.env[name] ??= join(dir, name.toLowerCase());
  // The CLI makes `$TMPDIR/opencode` and leaves it: a temporary folder of the subject's own, gone with it.
  if (!ownTmp) {
    ownTmp = true;
    process.env.TMPDIR = join(dir, 'tmp');
    mkdirSync(process.env.TMPDIR, { recursive: true });
  }
  process.env.OPENCODE_DISABLE_AUTOUPDATE = 'true';
  process.env.OPENCODE_DISABLE_MODELS_FETCH = 'true';
}

export const opencodeSubject: ContractSubject = {
  sessions: () => {
    const dbs = new Map<string, string>();
    return RECORDED.map(({ fixture, id }) => {
      const db = dbs.get(fixture) ?? database(fixture, unpacked);
      dbs.set(fixture, db);
      return { name: `${fixture}/${id}`, where: where(db), path: `${db}#${id}` };
    });
  },
  lastFillTokens: (path) => RECORDED.find((recorded) => path.endsWith(`#${recorded.id}`))?.fill ?? null,
  scratch(dir) {
    putCliOnPath(unpacked);
    // The tools session and one more prompt: its first turn (four tool calls) is then what a compaction can take.
    const db = database('tools', dir);
    const path = `${db}#ses_deb39dd53ffeWdcd3LUiVfojve`;
    writeFileSync(db, inWalMode(withTurn(new Uint8Array(readFileSync(db)), sessionIdOf(path), 7800)));
    return { where: where(db), workspace: '/tmp/opencode-rec-tools-Y3MLXc/workspace', path, file: db };
  },
  appendTurn(session: ScratchSession, fillTokens) {
    const before = new Uint8Array(readFileSync(session.file));
    writeFileSync(`${session.file}-wal`, walBetween(before, withTurn(before, sessionIdOf(session.path), fillTokens)));
  },
};
