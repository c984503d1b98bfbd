// The one polling follower Cline and the OpenCode family share: a read when a watched file moves,
// none while nothing moved, a failed read said once and made again at the next poll, a change
// reported only when the fill or the entries moved.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { PollingFollower, filesStamp } from '../../../../src/sessions/common/pollingFollower';
import type { ContextChange, Diagnostic, LiveContext, Result } from '../../../../src/sessions/types';

const temp = mkdtempSync(join(tmpdir(), 'cl-polling-'));
after(() => rmSync(temp, { recursive: true, force: true }));

/** The parts of a live context the follower looks at. */
function live(usedTokens: number, refs: string[]): LiveContext {
  return {
    entries: refs.map((ref) => ({ uuids: [ref] })),
    compactions: [],
    fill: { usedTokens, pendingTokens: 0 },
  } as unknown as LiveContext;
}

async function until(check: () => boolean, what: string, timeoutMs = 5_000): Promise<void> {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > timeoutMs) throw new Error(`${what} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('PollingFollower', () => {
  it('reads when a file moves, not while nothing moved; a failed read is said and made again at the next poll', async () => {
    const file = join(temp, 'session.json');
    writeFileSync(file, 'a');
    const script: Result<LiveContext>[] = [
      { ok: true, value: live(100, ['m1']) },
      { ok: false, error: { code: 'invalid-input', message: 'torn', path: file } },
      { ok: true, value: live(150, ['m1', 'm2']) },
    ];
    let reads = 0;
    const follower = new PollingFollower(
      { path: `${file}#s`, files: [file], read: () => Promise.resolve(script[Math.min(reads++, script.length - 1)] as Result<LiveContext>) },
      { debounceMs: 10, pollMs: 40 },
    );
    const changes: ContextChange[] = [];
    const diagnostics: Diagnostic[] = [];
    follower.on('contextChanged', (change) => changes.push(change));
    follower.on('diagnostic', (diagnostic) => diagnostics.push(diagnostic));
    try {
      await follower.start();
      assert.equal(changes[0]?.reason, 'initial');
      // Polls pass with the file as it was: no read.
      await new Promise((resolve) => setTimeout(resolve, 200));
      assert.equal(reads, 1);
      writeFileSync(file, 'ab');
      await until(() => changes.length === 2, 'the change after a failed read');
      assert.equal(diagnostics.length, 1);
      assert.equal(diagnostics[0]?.path, `${file}#s`);
      assert.equal(changes[1]?.reason, 'append');
      assert.deepEqual(changes[1]?.newUuids, ['m2']);
      assert.equal(changes[1]?.previous?.usedTokens, 100);
      // Read again (the file moved) with the same fill and entries: no change reported.
      writeFileSync(file, 'abc');
      const before = reads;
      await until(() => reads > before, 'a read after the file moved');
      assert.equal(changes.length, 2);
    } finally {
      follower.dispose();
    }
  });

  it('says why a session it cannot follow is not followed, and watches nothing', async () => {
    const follower = new PollingFollower(
      {
        path: 'nowhere',
        files: null,
        invalid: { severity: 'error', code: 'invalid-path', message: 'Not a session', path: 'nowhere' },
        read: () => Promise.reject(new Error('never read')),
      },
      { debounceMs: 10, pollMs: 40 },
    );
    const diagnostics: Diagnostic[] = [];
    follower.on('diagnostic', (diagnostic) => diagnostics.push(diagnostic));
    await follower.start();
    follower.dispose();
    assert.deepEqual(
      diagnostics.map((diagnostic) => diagnostic.code),
      ['invalid-path'],
    );
  });

  it("stamps a missing file as '-' and each file's inode, size and time", async () => {
    const file = join(temp, 'stamped');
    writeFileSync(file, 'xyz');
    const [present, missing] = (await filesStamp([file, join(temp, 'absent')])).split('|');
    assert.match(present ?? '', /^\d+:3:[\d.]+$/);
    assert.equal(missing, '-');
  });
});
