// Following a rollout as Codex appends to it: the fill moves with each token_count and the
// compaction is announced when its record arrives, also when lines come in pieces.
import assert from 'node:assert/strict';
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { CodexSessionFollower } from '../../../../src/sessions/codex';
import { listRolloutFiles } from '../../../../src/sessions/codex/paths';
import type { CompactionEvent } from '../../../../src/sessions/types';

const HOME = join(__dirname, '..', '..', '..', 'fixtures', 'codex', 'tally');

describe('CodexSessionFollower', () => {
  const temp = mkdtempSync(join(tmpdir(), 'cl-codex-follow-'));
  after(() => rmSync(temp, { recursive: true, force: true }));

  it('reports the fill per token_count and the compaction as the rollout grows', async () => {
    const [fixture] = await listRolloutFiles(HOME);
    assert.ok(fixture);
    const lines = readFileSync(fixture, 'utf8')
      .split('\n')
      .filter((line) => line !== '');
    const compactedAt = lines.findIndex((line) => line.includes('"type":"compacted"'));
    const path = join(temp, 'rollout.jsonl');
    writeFileSync(path, `${lines.slice(0, 40).join('\n')}\n`);
    const follower = new CodexSessionFollower(path, { pollMs: 60_000, autoCompactTokenLimit: null });
    const fills: number[] = [];
    const compactions: CompactionEvent[] = [];
    follower.on('contextChanged', (change) => fills.push(change.fill.usedTokens));
    follower.on('compacted', (event) => compactions.push(event));
    await follower.start();
    try {
      const postCount = lines.findIndex((line, index) => index > compactedAt && line.includes('"type":"token_count"'));
      const upToPost = `${lines.slice(40, postCount + 1).join('\n')}\n`;
      // Half a line first: nothing is read until its newline arrives.
      const cut = upToPost.indexOf('"type":"compacted"');
      appendFileSync(path, upToPost.slice(0, cut));
      await follower.refresh();
      assert.equal(compactions.length, 0);
      appendFileSync(path, upToPost.slice(cut));
      await follower.refresh();
      assert.equal(compactions.length, 1);
      assert.equal(compactions[0]?.by, 'agent');
      assert.equal(follower.fill?.usedTokens, 6938, "Codex's estimate of the compacted history");
      assert.equal(follower.fill?.compactedSinceUsage, true);
      appendFileSync(path, `${lines.slice(postCount + 1).join('\n')}\n`);
      await follower.refresh();
      assert.equal(follower.fill?.usedTokens, 9824, 'the last token_count');
      assert.equal(follower.fill?.source, 'usage');
      assert.ok(fills.length >= 3);
    } finally {
      follower.dispose();
    }
  });
});
