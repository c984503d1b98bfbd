// Kilo for the adapter contract: the sessions the real CLI (@kilocode/cli 7.7.7) recorded offline
// (scripts/fixtures/kilo/record.ts; one database per fixture), their last call's prompt as the
// stand-in reported it, and a turn appended as the OpenCode family commits one (rows in the log).
// A fork goes in through the real `kilo import` (the pinned CLI from the tool cache, put on PATH).
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { ensureKiloCli } from '../kiloCli';
import { walBetween } from '../opencodeWal';
import { inWalMode, sessionIdOf, withTurn } from './opencodeFamily';
import type { ContractSubject, ScratchSession } from './subject';

export const KILO_FIXTURES = join(__dirname, '..', '..', 'fixtures', 'kilo', 'recorded');

const unpacked = mkdtempSync(join(tmpdir(), 'cl-contract-kilo-'));
// The subject has no end of its own: its unpacked databases go when the test process does.
process.on('exit', () => rmSync(unpacked, { recursive: true, force: true }));
const where = (db: string) => ({ homes: { kilo: [db] } });

/** Each recorded session, its workspace, and the prompt of its last call (input + cache.read + cache.write) from the stand-in's usage. */
const RECORDED: readonly { fixture: string; id: string; fill: number; workspace: string }[] = [
  { fixture: 'tools', id: 'ses_de04758b6ffe4pjQ3kkOFPuxHv', fill: 12_730, workspace: '/tmp/kilo-rec-tools-knRl2J/workspace' },
  { fixture: 'compaction', id: 'ses_de0465080ffeotOxeaB0jfXMm1', fill: 12_498, workspace: '/tmp/kilo-rec-compaction-45lqfJ/workspace' },
];

/** A recorded database, unpacked as `<dir>/<fixture>/kilo.db`. */
export function kiloFixture(fixture: string, dir: string): string {
  const db = join(dir, fixture, 'kilo.db');
  mkdirSync(dirname(db), { recursive: true });
  writeFileSync(db, gunzipSync(readFileSync(join(KILO_FIXTURES, `${fixture}.db.gz`))));
  return db;
}

let ownTmp = false;

/** `kilo import` as a person would run it: on PATH, here offline and with private folders. */
function putCliOnPath(dir: string): void {
  const binary = ensureKiloCli();
  if (!(process.env.PATH ?? '').split(delimiter).includes(dirname(binary))) process.env.PATH = `${dirname(binary)}${delimiter}${process.env.PATH ?? ''}`;
  for (const name of ['XDG_DATA_HOME', 'XDG_STATE_HOME', 'XDG_CACHE_HOME']) process.env[name] ??= join(dir, name.toLowerCase());
  if (!ownTmp) {
    ownTmp = true;
    process.env.TMPDIR = join(dir, 'tmp');
    mkdirSync(process.env.TMPDIR, { recursive: true });
  }
  process.env.KILO_DISABLE_AUTOUPDATE = 'true';
  process.env.KILO_DISABLE_MODELS_FETCH = 'true';
  process.env.KILO_TELEMETRY_DISABLED = 'true';
}

export const kiloSubject: ContractSubject = {
  sessions: () =>
    RECORDED.map(({ fixture, id }) => {
      const db = join(unpacked, fixture, 'kilo.db');
      if (!existsSync(db)) kiloFixture(fixture, unpacked);
      return { name: `${fixture}/${id}`, where: where(db), path: `${db}#${id}` };
    }),
  lastFillTokens: (path) => RECORDED.find((recorded) => path.endsWith(`#${recorded.id}`))?.fill ?? null,
  scratch(dir) {
    putCliOnPath(unpacked);
    // The tools session and one more prompt: its first turns (four tool calls) are then what a compaction can take.
    const recorded = RECORDED[0]!;
    const db = kiloFixture(recorded.fixture, dir);
    const path = `${db}#${recorded.id}`;
    writeFileSync(db, inWalMode(withTurn(new Uint8Array(readFileSync(db)), sessionIdOf(path), 12_800, 'code')));
    return { where: where(db), workspace: recorded.workspace, path, file: db };
  },
  appendTurn(session: ScratchSession, fillTokens) {
    const before = new Uint8Array(readFileSync(session.file));
    writeFileSync(`${session.file}-wal`, walBetween(before, withTurn(before, sessionIdOf(session.path), fillTokens, 'code')));
  },
};
