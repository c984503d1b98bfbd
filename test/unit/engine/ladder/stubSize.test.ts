// A stub must never cost more than the output it replaces: outputs about the size of their stub
// stay whole, whichever tier looks at them, and once the real archive id is in (longer than the
// placeholder the plan wrote) a stub that came out no smaller is undone.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MemoryArchive } from '../../../../src/engine/archive';
import { compact } from '../../../../src/engine/compact';
import { runAgeClear } from '../../../../src/engine/ladder/ageClear';
import { countStub, describeOutput, settleRefs, PENDING_ARCHIVE_ID } from '../../../../src/engine/ladder/stubText';
import { countNew, initialPlan } from '../../../../src/engine/ladder/state';
import { charEstimateTokenizer as tokenizer } from '../../../../src/engine/tokens/tokenizer';
import { assistant, build, call, results, user } from '../support/build';
import { ladderState } from './helpers';

/** Twelve Bash calls whose outputs are a few characters longer than a cleared stub. */
function smallOutputs(extra: number) {
  const calls = Array.from({ length: 12 }, (_, index) => [
    assistant(call(`b${index}`, 'Bash', { command: `echo ${index}` })),
    results({ id: `b${index}`, output: 'x'.repeat(extra) }),
  ]).flat();
  return build([user('go'), ...calls, assistant('done'), user('next'), assistant('ok')], { windowTokens: 4_000 });
}

describe('stub sizes', () => {
  it("counts a stub with an id of the real archive id's length, not the short placeholder", () => {
    const state = ladderState(smallOutputs(10));
    const text = `ref: ${PENDING_ARCHIVE_ID}#3`;
    assert.ok(countStub(state, text) > countNew(state, text), 'the real id is longer than the placeholder');
  });

  it('age-clearing leaves an output whole when its stub, once settled, would not be smaller', () => {
    const state = ladderState(smallOutputs(0), { ageClear: { clearAtLeastTokens: 0 } });
    state.planned = initialPlan(state.context, state.policy, () => false);
    const result = state.planned.find((planned) => planned.item.kind === 'tool_result');
    assert.ok(result);
    // An output just longer than its stub with the placeholder, not longer than with a real id.
    const stub = `[Old tool result content cleared] ${describeOutput(result.item, undefined)}`;
    const between = Math.floor((countNew(state, stub) + countStub(state, stub)) / 2);
    for (const planned of state.planned) {
      if (planned.item.kind !== 'tool_result') continue;
      Object.assign(planned.item, { tokens: between });
      planned.tokensAfter = between;
    }
    state.totalTokens = state.planned.reduce((sum, planned) => sum + planned.tokensAfter, 0);
    const report = runAgeClear(state);
    assert.equal(report.acted, 0, report.note);
  });

  it('settling undoes a stub the real id made no smaller than its output, and keeps the books', () => {
    const state = ladderState(smallOutputs(40));
    state.planned = initialPlan(state.context, state.policy, () => false);
    const planned = state.planned.find((entry) => entry.item.kind === 'tool_result');
    assert.ok(planned);
    const text = `[cleared] ref: ${PENDING_ARCHIVE_ID}#${planned.item.id}`;
    // An output 2 tokens bigger than its stub with the placeholder: the long real id makes the stub bigger.
    Object.assign(planned.item, { tokens: countNew(state, text) + 2 });
    Object.assign(planned, { fate: 'compacted', tier: 'age-clear', prunedBy: 'age-clear', text, tokensAfter: countNew(state, text) });
    const tiers = [{ tier: 'age-clear' as const, acted: 1, tokensSaved: 2 }];
    state.totalTokens = state.planned.reduce((sum, entry) => sum + entry.tokensAfter, 0);
    settleRefs(state, tiers, 'a-much-longer-archive-id-2026-01-01T00-00-00-000Z');
    assert.equal(planned.fate, 'preserved');
    assert.equal(planned.text, planned.item.text);
    assert.equal(planned.tokensAfter, planned.item.tokens);
    assert.match(planned.reason, /kept whole: its age-clear text \(\d+ tokens\) would not be smaller/);
    assert.equal(tiers[0]?.acted, 0);
    assert.equal(
      state.totalTokens,
      state.planned.reduce((sum, entry) => sum + entry.tokensAfter, 0),
      'the running total is exact',
    );
  });

  it('never writes a stub bigger than its output in a whole compaction', async () => {
    for (const extra of [0, 20, 60, 90, 140]) {
      const context = smallOutputs(extra);
      const result = await compact(
        context,
        { trigger: 'manual', explicitTarget: true, targetPercent: 1, summary: { enabled: false }, ageClear: { clearAtLeastTokens: 0 } },
        { tokenizer, archive: new MemoryArchive() },
      );
      for (const fate of result.items) assert.ok(fate.tokensAfter <= fate.tokensBefore, `${extra}: #${fate.id} ${fate.tokensBefore} → ${fate.tokensAfter}`);
    }
  });
});
