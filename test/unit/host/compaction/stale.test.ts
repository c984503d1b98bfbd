import assert from 'node:assert/strict';
import { DEMO_SESSION, appendResponse } from '../../../support/demoSession';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { describe, it } from 'node:test';
import { lastRecordOf, sessionMovedOn } from '../../../../src/host/compaction/stale';
import { claudeCodeAdapter } from '../../../../src/sessions/claude-code/adapter';
import { readLiveContext } from '../../../../src/sessions/claude-code/liveContext';

const DEMO = DEMO_SESSION;

describe('whether a session moved on since a preview', () => {
  it('is false until the agent appends a turn, then true', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'cl-stale-'));
    const copy = join(folder, basename(DEMO));
    copyFileSync(DEMO, copy);
    try {
      const live = await readLiveContext(copy);
      assert.ok(live.ok);
      assert.notEqual(lastRecordOf(live.value), null);
      assert.deepEqual(await sessionMovedOn(claudeCodeAdapter, live.value), { ok: true, value: false });

      const uuid = appendResponse(copy, 20_000);
      assert.deepEqual(await sessionMovedOn(claudeCodeAdapter, live.value), { ok: true, value: true });
      const now = await readLiveContext(copy);
      assert.ok(now.ok);
      assert.equal(lastRecordOf(now.value), uuid);

      rmSync(copy);
      assert.equal((await sessionMovedOn(claudeCodeAdapter, live.value)).ok, false, 'a session that cannot be read is not applied blindly');
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
