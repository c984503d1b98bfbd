// Waiting for a workspace's first OpenCode session: the database may not exist yet.
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { opencodeAdapter } from '../../../../src/sessions/opencode/adapter';
import type { SessionLocations } from '../../../../src/sessions/port';
import type { SessionInfo } from '../../../../src/sessions/types';
import { unpackFixture } from '../../../support/opencodeWal';

const temp = mkdtempSync(join(tmpdir(), 'cl-opencode-wait-'));
after(() => rmSync(temp, { recursive: true, force: true }));

describe('OpenCode waitForSession', () => {
  it("finds the workspace's session once the database appears, and not a subagent", async () => {
    const source = join(temp, 'source.db');
    unpackFixture('subagent', source);
    const listed = await opencodeAdapter.listSessions({ homes: { opencode: [source] } } as SessionLocations);
    assert.ok(listed.ok);
    const workspace = listed.value[0]?.cwd ?? '';
    const db = join(temp, 'later', 'opencode.db');
    const found: SessionInfo[] = [];
    const waiter = await opencodeAdapter.waitForSession(
      workspace,
      { homes: { opencode: [db] } } as SessionLocations,
      (session) => found.push(session),
      () => undefined,
    );
    try {
      assert.deepEqual(waiter.where, [db]);
      assert.equal(found.length, 0);
      mkdirSync(join(temp, 'later'));
      copyFileSync(source, db);
      const deadline = Date.now() + 10_000;
      while (found.length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
      assert.equal(found.length, 1);
      assert.equal(found[0]?.isSidechain, false);
    } finally {
      waiter.dispose();
    }
  });
});
