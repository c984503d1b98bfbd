import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MemoryArchive } from '../../../../src/engine/archive';
import { compact } from '../../../../src/engine/compact';
import { resolveOptions } from '../../../../src/engine/options';
import { plan } from '../../../../src/engine/plan';
import { analyzePolicy, DROPPED_BY_YOU, KEPT_BY_YOU } from '../../../../src/engine/policy/preserve';
import { charEstimateTokenizer } from '../../../../src/engine/tokens/tokenizer';
import { assistant, big, build, call, read, user } from '../support/build';

const tokenizer = charEstimateTokenizer;
const conversation = [
  user('Make the parser faster.'),
  ...read('r1', '/a.ts', big('a', 4_000)),
  assistant('I think the cache is the bottleneck.'),
  ...read('r2', '/b.ts', big('b', 4_000)),
  user('Now look at c.ts.'),
  ...read('r3', '/c.ts', big('c', 400)),
  assistant(call('r4', 'Bash', { command: 'npm test' })),
];
const context = () => build(conversation, { windowTokens: 10_000 });
const idOf = (fragment: string, kind?: string): number =>
  context().items.find((item) => item.text.includes(fragment) && (kind === undefined || item.kind === kind))?.id ?? -1;

describe('user choices (keep / drop)', () => {
  it('keeps a chosen item verbatim with its pair, whatever the ladder would do', () => {
    const resultA = idOf('a\nxxx', 'tool_result');
    const fates = plan(context(), { trigger: 'manual', choices: { keep: [resultA], drop: [] } }, { tokenizer }).items;
    const kept = fates.filter((fate) => fate.reason === KEPT_BY_YOU);
    assert.deepEqual(kept.map((fate) => fate.kind).sort(), ['tool_result', 'tool_use']);
    for (const fate of kept) assert.equal(fate.fate, 'preserved');
    assert.equal(fates.find((fate) => fate.id === resultA)?.protection, 'choice');
  });

  it('drops a chosen tool result together with its call, before any tier, and says why', () => {
    const resultB = idOf('b\nxxx', 'tool_result');
    const result = plan(context(), { choices: { keep: [], drop: [resultB] } }, { tokenizer });
    const dropped = result.items.filter((fate) => fate.reason === DROPPED_BY_YOU);
    assert.deepEqual(dropped.map((fate) => fate.kind).sort(), ['tool_result', 'tool_use']);
    for (const fate of dropped) assert.equal(fate.fate, 'dropped');
    assert.equal(result.tiers[0]?.tier, 'choice');
    assert.equal(result.metrics.perTier.choice.items, 2);
    // The books still balance with the person's drops counted.
    const saved = Object.values(result.metrics.perTier).reduce((sum, tier) => sum + tier.tokensSaved, 0);
    assert.equal(saved, result.metrics.savedTokens);
  });

  it('drops what policy would keep (the recent window) but never the head or a call still running', () => {
    const recentUser = idOf('Now look at c.ts.');
    const running = idOf('npm test', 'tool_use');
    const fates = plan(context(), { choices: { keep: [], drop: [0, recentUser, running] } }, { tokenizer }).items;
    assert.equal(fates.find((fate) => fate.id === recentUser)?.fate, 'dropped');
    assert.equal(fates.find((fate) => fate.id === 0)?.fate, 'preserved');
    assert.equal(fates.find((fate) => fate.id === running)?.fate, 'preserved');
  });

  it('lets keep win when both name one side of a pair', () => {
    const call1 = idOf('/a.ts', 'tool_use');
    const result1 = idOf('a\nxxx', 'tool_result');
    const policy = analyzePolicy(context(), resolveOptions({ choices: { keep: [call1], drop: [result1] } }));
    assert.equal(policy.dropped.size, 0);
    assert.equal(policy.protections.get(result1)?.reason, KEPT_BY_YOU);
  });

  it('ignores ids that are not in the context', () => {
    const policy = analyzePolicy(context(), resolveOptions({ choices: { keep: [999], drop: [-1, 1.5] } }));
    assert.equal(policy.dropped.size, 0);
  });

  it('drops only with an archive: compact archives first, and without one leaves the item and says so', async () => {
    const resultB = idOf('b\nxxx', 'tool_result');
    const archive = new MemoryArchive();
    const applied = await compact(
      context(),
      { trigger: 'manual', explicitTarget: true, targetTokens: 100_000, choices: { keep: [], drop: [resultB] } },
      { tokenizer, archive },
    );
    assert.equal(applied.status, 'compacted');
    assert.ok(applied.archive, 'archived before dropping');
    assert.ok(!applied.after.items.some((item) => item.text.includes('b\nxxx')));

    const without = await compact(
      context(),
      { trigger: 'manual', explicitTarget: true, targetTokens: 100_000, choices: { keep: [], drop: [resultB] } },
      { tokenizer },
    );
    assert.equal(without.status, 'noop');
  });
});
