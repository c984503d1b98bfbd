// Issue 41, item 7: after Claude Code's own compaction, its first call carried what it re-attached
// (recently read files) besides the system prompt and tools, none of it recorded. That part is not
// a floor: a fork does not send it. On the published session of this shape (spotter, Claude Code
// 2.1.39, `/compact` then more work, no recorded request), the head measured before the compaction
// (25,974 tokens, its first call) is the floor, the 13,653 re-attached tokens are an item of their
// own that any compaction drops.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { MemoryArchive } from '../../../src/engine/archive';
import { compact } from '../../../src/engine/compact';
import { claudeCodeAdapter } from '../../../src/sessions/claude-code/adapter';
import { engineContextOf } from '../../../src/sessions/engineContext';

const SPOTTER = join(
  __dirname,
  '..',
  '..',
  'fixtures',
  'claude-code',
  'public',
  'spotter-2.1.39',
  'projects',
  '-home-USER-projects-spotter-worktrees-spotter-4te',
  'ae4a77f8-aedd-4bc1-888f-c94edc91af04.jsonl',
);
const CODEMIE = join(
  __dirname,
  '..',
  '..',
  'fixtures',
  'claude-code',
  'public',
  'codemie-2.0.76',
  'projects',
  '-Users-user-repo',
  '624a4a58-b34c-462d-a70d-13421c8125a8.jsonl',
);

async function contextOf(path: string) {
  const info = await claudeCodeAdapter.readSessionInfo(path);
  assert.ok(info.ok);
  const live = await claudeCodeAdapter.readLiveContext(info.value);
  assert.ok(live.ok);
  return { live: live.value, context: engineContextOf(live.value) };
}

describe('what Claude Code re-attached after its compaction is not a floor (issue 41, item 7)', () => {
  it('spotter 2.1.39: the head before the compaction is the floor, the re-attached part is dropped', async () => {
    const { live, context } = await contextOf(SPOTTER);
    assert.equal(live.headResent, 25_974);
    const head = context.items.filter((item) => item.messageIndex < 0);
    assert.deepEqual(
      head.map((item) => [item.reattached === true, item.tokens]),
      [
        [false, 25_974],
        [true, 13_653],
      ],
    );
    // The total is still what the calls measured: the live session does send it.
    assert.equal(context.usedTokens, 102_169);
    const result = await compact(context, { trigger: 'manual', explicitTarget: true, targetTokens: 10_000 }, { archive: new MemoryArchive() });
    assert.equal(result.floor?.system, 25_974);
    assert.equal(result.items.find((item) => item.id === head[1]?.id)?.fate, 'dropped');
    assert.ok(result.metrics.tokensAfter < 39_627, `${result.metrics.tokensAfter}: below the head as first measured`);
  });

  it('codemie 2.0.76: a head that measured less after the compaction than before is left whole', async () => {
    const { context } = await contextOf(CODEMIE);
    assert.ok(!context.items.some((item) => item.reattached));
  });

  it('a session without a compaction of the agent has no re-attached part', async () => {
    const { live } = await contextOf(
      join(__dirname, '..', '..', '..', 'samples', 'claude-config', 'projects', '-home-user-payments-demo', 'c6b61ed8-d74f-49a3-9726-211b52f81b9b.jsonl'),
    );
    assert.equal(live.headResent, undefined);
  });
});
