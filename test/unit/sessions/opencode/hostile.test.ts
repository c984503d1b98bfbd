// Hostile databases: every read ends in a result (never a throw or a hang) and nothing is written.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { opencodeAdapter } from '../../../../src/sessions/opencode/adapter';
import { sessionPath } from '../../../../src/sessions/common/opencodeFamily/paths';
import type { SessionLocations } from '../../../../src/sessions/port';
import { imageAfter, unpackFixture } from '../../../support/opencodeWal';

const temp = mkdtempSync(join(tmpdir(), 'cl-opencode-hostile-'));
after(() => rmSync(temp, { recursive: true, force: true }));

const where = (db: string): SessionLocations => ({ homes: { opencode: [db] } }) as SessionLocations;

/** Lists, reads a session by path and reads its calls: all must return results. */
async function readAll(db: string): Promise<{ listed: boolean; read: boolean }> {
  const listed = await opencodeAdapter.listSessions(where(db));
  const info = await opencodeAdapter.readSessionInfo(sessionPath(db, 'ses_0123456789abcdefABCDEF'));
  assert.equal(info.ok, false);
  return { listed: listed.ok, read: info.ok };
}

describe('OpenCode hostile databases', () => {
  const good = unpackFixture('tools', join(temp, 'good.db'));

  it('refuses a text file, a truncated database and a folder', async () => {
    const text = join(temp, 'text.db');
    writeFileSync(text, 'not a database\n'.repeat(100));
    const truncated = join(temp, 'truncated.db');
    writeFileSync(truncated, good.subarray(0, 8192));
    const folder = join(temp, 'folder.db');
    mkdirSync(folder);
    for (const db of [text, truncated, folder]) {
      const listed = await opencodeAdapter.listSessions(where(db));
      assert.equal(listed.ok, false, db);
      await readAll(db);
    }
  });

  it('refuses a named pipe without waiting for a writer', async () => {
    const fifo = join(temp, 'fifo.db');
    execFileSync('mkfifo', [fifo]);
    const listed = await opencodeAdapter.listSessions(where(fifo));
    assert.equal(listed.ok, false);
    assert.match(listed.ok ? '' : listed.error.message, /named pipe/);
  });

  it('reads without a log, past a garbage log, and lists nothing where there is no database', async () => {
    const db = join(temp, 'with-garbage-log.db');
    writeFileSync(db, good);
    writeFileSync(`${db}-wal`, 'garbage'.repeat(1000));
    const listed = await opencodeAdapter.listSessions(where(db));
    assert.ok(listed.ok);
    assert.equal(listed.value.length, 1);
    const missing = await opencodeAdapter.listSessions(where(join(temp, 'absent', 'opencode.db')));
    assert.deepEqual(missing, { ok: true, value: [] });
  });

  it("reads a database missing one of OpenCode's tables as an error, not a crash", async () => {
    const db = join(temp, 'other.db');
    writeFileSync(db, await imageAfter(good, 'DROP TABLE part'));
    const bytes = readFileSync(db);
    const listed = await opencodeAdapter.listSessions(where(db));
    assert.equal(listed.ok, false);
    assert.match(listed.ok ? '' : listed.error.message, /no such table: part/);
    assert.deepEqual(readFileSync(db), bytes);
  });

  it('writes nothing beside the databases it read', () => {
    const names = readdirSync(temp).sort();
    assert.deepEqual(names, ['fifo.db', 'folder.db', 'good.db', 'other.db', 'text.db', 'truncated.db', 'with-garbage-log.db', 'with-garbage-log.db-wal']);
  });
});
