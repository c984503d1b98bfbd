import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { charEstimateTokenizer, plan, sumTokens, type EngineOptionsInput } from '../../../src/engine';
import { breakdownOf, legendOf, planViewOf, regionLabel, regionsOf, samePlan } from '../../../src/host/context/derive';
import { CATEGORIES } from '../../../src/protocol/messages';
import { assistant, big, build, read, user } from '../engine/support/build';

const context = () =>
  build(
    [
      user('Fix the retry. Never modify config/prod.yaml.'),
      ...read('t1', '/w/retry.ts', big('v1', 8_000)),
      ...read('t2', '/w/retry.ts', big('v2', 8_000)),
      assistant('Wait, actually the timing is off.'),
      user('ok'),
    ],
    { windowTokens: 10_000 },
  );

const planAt =
  (targetPercent: number, extra: EngineOptionsInput = {}) =>
  (ctx: ReturnType<typeof context>) =>
    plan(ctx, { targetPercent, ...extra, preserve: { recentTurns: 1, recentPercent: 0, ...extra.preserve } }, { tokenizer: charEstimateTokenizer });

describe('host derivations', () => {
  it('sums tokens per category in the gauge order, leaving empty categories out', () => {
    const ctx = context();
    const breakdown = breakdownOf(ctx);
    assert.equal(sumTokens(breakdown), ctx.usedTokens);
    assert.deepEqual(
      breakdown.map((entry) => entry.category),
      CATEGORIES.filter((category) => ctx.items.some((item) => item.kind === category && item.tokens > 0)),
    );
    assert.ok(breakdown.every((entry) => entry.tokens > 0));
    assert.match(legendOf(breakdown, String), /^system prompt \d+ · .*tool results \d+/);
  });

  it('labels tools by what they touched and other items by their first words', () => {
    assert.equal(regionLabel({ kind: 'tool_use', text: 'Read {}', toolName: 'Read', resourceKey: 'file:/w/retry.ts' }), 'Read /w/retry.ts');
    assert.equal(regionLabel({ kind: 'tool_use', text: 'Bash {}', toolName: 'Bash', resourceKey: 'cmd:cat untrusted.html' }), 'Bash cat untrusted.html');
    // Inside the agent's working directory, paths read relative to it (the file name fits the column).
    assert.equal(
      regionLabel({ kind: 'tool_use', text: 'Read {}', toolName: 'Read', resourceKey: 'file:/w/src/retry.ts#1+20' }, '/w'),
      'Read src/retry.ts#1+20',
    );
    assert.equal(
      regionLabel({ kind: 'tool_use', text: 'Grep {}', toolName: 'Grep', resourceKey: 'search:Grep:withRetry in /w/src' }, '/w'),
      'Grep withRetry in src',
    );
    assert.equal(regionLabel({ kind: 'tool_use', text: 'Read {}', toolName: 'Read', resourceKey: 'file:/elsewhere/a.ts' }, '/w'), 'Read /elsewhere/a.ts');
    assert.equal(regionLabel({ kind: 'user', text: '  hello\n  world ' }), 'hello world');
    assert.equal(regionLabel({ kind: 'user', text: 'x'.repeat(500) }).length, 60);
    assert.equal(regionLabel({ kind: 'thinking', text: '' }), 'thinking');
    // The agent's markup and tool schemas say nothing at a glance.
    assert.equal(regionLabel({ kind: 'reminder', text: '<system-reminder>\nCalled the Read tool\n</system-reminder>' }), 'Called the Read tool');
    assert.equal(regionLabel({ kind: 'reminder', text: '<command-name>/compact</command-name>' }), '/compact');
    assert.equal(regionLabel({ kind: 'tools', text: '{"name":"Bash","description":"…","input_schema":{"type":"object"}}' }), 'tool definition: Bash');
    assert.equal(regionLabel({ kind: 'user', text: 'is a < b and c > d?' }), 'is a < b and c > d?');
  });

  it('turns a plan into regions with fates, pins and marker counts', () => {
    const ctx = context();
    const planned = planAt(20, { preserve: { pinned: ['Never modify config/prod.yaml.'] } })(ctx);
    const view = planViewOf(ctx, planned, 1);
    assert.equal(view.regions.length, ctx.items.length);
    assert.equal(view.beforeTokens, planned.metrics.tokensBefore);
    assert.ok(
      view.regions.some((region) => region.fate !== 'preserved'),
      'something is compacted',
    );
    const marked = view.regions.find((region) => region.label.startsWith('Wait'));
    assert.ok(marked);
    assert.equal(marked.markerCount, planned.items[marked.id]?.markers?.length ?? 0);
    for (const region of view.regions) assert.equal(region.pinned, region.protection === 'pinned');
    assert.deepEqual(regionsOf(ctx, []), []);
  });

  it('compares plans without their revisions', () => {
    const ctx = context();
    const planned = planAt(20)(ctx);
    assert.ok(samePlan(planViewOf(ctx, planned, 1), planViewOf(ctx, planned, 2)));
    assert.ok(!samePlan(planViewOf(ctx, planned, 1), planViewOf(ctx, planAt(90)(ctx), 1)));
    assert.ok(samePlan(null, null));
    assert.ok(!samePlan(null, planViewOf(ctx, planned, 1)));
  });
});
