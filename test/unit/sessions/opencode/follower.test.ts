// Following an OpenCode session while its database grows the way OpenCode writes it: new rows land
// in the log (`-wal`) first; the follower sees them without a checkpoint and without writing.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { opencodeAdapter } from '../../../../src/sessions/opencode/adapter';
import { OPENCODE_FLAVOUR } from '../../../../src/sessions/opencode/flavour';
import { OpencodeSessionFollower } from '../../../../src/sessions/common/opencodeFamily/follower';
import type { SessionLocations } from '../../../../src/sessions/port';
import type { ContextChange } from '../../../../src/sessions/types';
import { imageAfter, unpackFixture, walBetween } from '../../../support/opencodeWal';

const temp = mkdtempSync(join(tmpdir(), 'cl-opencode-follow-'));
after(() => rmSync(temp, { recursive: true, force: true }));

function nextChange(changes: ContextChange[], count: number, timeoutMs = 10_000): Promise<void> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const check = (): void => {
      if (changes.length >= count) return resolve();
      if (Date.now() - started > timeoutMs) return reject(new Error(`no change ${count} within ${timeoutMs} ms (${changes.length} so far)`));
      setTimeout(check, 20);
    };
    check();
  });
}

describe('OpenCode follower', () => {
  it('reports the new call when its rows arrive in the log, and writes nothing', async () => {
    const full = unpackFixture('plain', join(temp, 'full.db'));
    const db = join(temp, 'opencode.db');
    // The session before its last answer: the newest message and its parts not written yet.
    const newest = '(SELECT id FROM message ORDER BY id DESC LIMIT 1)';
    const before = await imageAfter(full, `DELETE FROM part WHERE message_id = ${newest}; DELETE FROM message WHERE id = ${newest}`);
    writeFileSync(db, before);
    const listed = await opencodeAdapter.listSessions({ homes: { opencode: [db] } } as SessionLocations);
    assert.ok(listed.ok);
    const [session] = listed.value;
    assert.ok(session);
    // A short poll: the log does not exist yet, so fs.watch cannot watch it.
    const follower = new OpencodeSessionFollower(OPENCODE_FLAVOUR, session, { pollMs: 100 });
    const changes: ContextChange[] = [];
    follower.on('contextChanged', (change) => changes.push(change));
    await follower.start();
    try {
      await nextChange(changes, 1);
      assert.equal(changes[0]?.reason, 'initial');
      assert.equal(changes[0]?.fill.usedTokens, 7337);
      // OpenCode commits the answer: into the log, the database file untouched.
      writeFileSync(`${db}-wal`, walBetween(before, full));
      await nextChange(changes, 2);
      const appended = changes[1];
      assert.equal(appended?.reason, 'append');
      assert.equal(appended?.fill.usedTokens, 7363);
      assert.equal(appended?.previous?.usedTokens, 7337);
      assert.equal(appended?.newUuids.length, 1);
      assert.match(appended?.newUuids[0] ?? '', /^msg_/);
    } finally {
      follower.dispose();
    }
    assert.deepEqual(readFileSync(db), Buffer.from(before));
    assert.deepEqual(readdirSync(temp).sort(), ['full.db', 'opencode.db', 'opencode.db-wal']);
  });
});
