// Issue 13: a target missed after the gentle tiers escalates inside the protected windows, in a
// stated order, and the result says what was done and what no step can remove.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MemoryArchive } from '../../../../src/engine/archive';
import { compact } from '../../../../src/engine/compact';
import { escalate } from '../../../../src/engine/ladder/escalate';
import type { LadderState } from '../../../../src/engine/ladder/state';
import { resolveOptions } from '../../../../src/engine/options';
import { plan } from '../../../../src/engine/plan';
import { charEstimateTokenizer as tokenizer } from '../../../../src/engine/tokens/tokenizer';
import { assistant, big, build, call, read, user } from '../support/build';

/** One prompt, then a long autonomous turn ending in two oversized reads. */
const turn = () =>
  build(
    [
      user('Port the parser. Never touch vendor/.'),
      ...Array.from({ length: 12 }, (_, index) => [
        assistant(`Reading part ${index}: the rules there order identifiers and nothing else, so the parser can keep its shape.`),
        ...read(`r${index}`, `/w/src/part${index}.ts`, big(`part ${index}`, 3_000)),
      ]).flat(),
      assistant('Two big files left.'),
      ...read('big1', '/w/vendor/range.js', big('range', 24_000)),
      assistant(call('big2', 'Read', { file_path: '/w/vendor/compare.js' })),
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'big2', content: big('compare', 20_000) }] },
    ],
    { windowTokens: 60_000 },
  );

describe('escalation inside the protected windows', () => {
  it('summarises the aged part of a single long turn and keeps its prompt and last tool uses', async () => {
    // Without clearing by age, only a summary of the turn's aged part can reach the target.
    const result = await compact(
      turn(),
      { trigger: 'manual', explicitTarget: true, targetPercent: 10, ageClear: { enabled: false } },
      { tokenizer, archive: new MemoryArchive() },
    );
    assert.equal(result.status, 'compacted');
    assert.ok(result.summary, 'the current turn is summarised once aged');
    assert.equal(result.items.find((item) => item.kind === 'user')?.fate, 'preserved');
    assert.ok(result.metrics.targetMet, `${result.metrics.tokensAfter} > ${result.metrics.targetTokens}`);
  });

  it('cuts oversized recent outputs to head+tail first, then shrinks the recent window, and reports each step', () => {
    const planned = plan(turn(), { trigger: 'manual', explicitTarget: true, targetPercent: 10, preserve: { recentPercent: 40 } }, { tokenizer });
    assert.deepEqual(planned.escalation.map((step) => step.step).slice(0, 2), ['cut-recent-outputs', 'smaller-recent-window']);
    assert.match(planned.escalation[1]?.detail ?? '', /^recent window 5 % of the window \/ 2 exchanges$/);
    const cut = planned.items.filter((item) => item.reason.includes('in the recent window: the target was missed without it'));
    assert.ok(cut.length >= 1 && cut.every((item) => item.tier === 'truncate' && item.reason.startsWith('truncated head+tail')));
    assert.ok(planned.metrics.targetMet);
  });

  it('does nothing more when the gentle tiers meet the target', () => {
    assert.deepEqual(plan(turn(), { trigger: 'manual', explicitTarget: true, targetPercent: 90 }, { tokenizer }).escalation, []);
  });

  it('reports the policy floor: system, tools, pinned, the latest prompt, the original ask', () => {
    const context = build([user('Start.'), assistant('ok'), user('Never touch vendor/.'), assistant('ok'), user(`Now this: ${big('prompt', 8_000)}`)], {
      system: 'You are a coding agent.',
      windowTokens: 20_000,
    });
    const planned = plan(context, { trigger: 'manual', explicitTarget: true, targetTokens: 100 }, { tokenizer });
    const { floor } = planned;
    assert.ok(floor.system > 0 && floor.latestPrompt > 2_000 && floor.pinned > 0 && floor.originalAsk > 0);
    assert.equal(floor.tokens, floor.system + floor.tools + floor.pinned + floor.latestPrompt + floor.originalAsk);
    assert.equal(planned.metrics.targetMet, false);
    assert.ok(planned.metrics.tokensAfter >= floor.tokens);
  });

  it('never takes a step that weighs more than the run it would replace', () => {
    // Sizes per attempt: the plain run 1,000, cutting recent outputs 1,200 (a rewrite that grew),
    // the first smaller window 900, the rest 800; the target (100) is never met. The third window
    // gains nothing over the second: not taken either (compact reports the last step taken with
    // what it wrote, re-injected pins included, which an untaken step of the same weight undercut).
    const sizes = [1_000, 1_200, 900, 800, 800, 800, 800];
    let attempt = 0;
    const escalated = escalate(resolveOptions({ preserve: { recentTurns: 3, recentPercent: 10 } }), () => ({
      state: { totalTokens: sizes[attempt++] ?? 800, targetTokens: 100 } as LadderState,
    }));
    assert.deepEqual(
      escalated.steps.map((step) => step.tokensAfter),
      [900, 800],
    );
    assert.equal(escalated.steps[0]?.step, 'smaller-recent-window');
    assert.equal(escalated.run.state.totalTokens, 800);
  });
});
