// Offers follow the engine's trigger decisions with hysteresis: one per climb past the trigger, one
// more past the safety net, none while the breaker is open, re-armed under the target.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TriggerController } from '../../../../src/engine';
import { nudgeFor, type NudgeState } from '../../../../src/host/triggers/nudge';

const WINDOW = 1_000_000;
const facts = (usedTokens: number) => ({ usedTokens, windowTokens: WINDOW, agentAutoCompactTokens: 967_000, targetPercent: 60, safetyNetPercent: 95 });

function walk(fills: number[], controller = new TriggerController()): (string | null)[] {
  const state: NudgeState = { offered: null };
  return fills.map((percent) => {
    const used = (percent / 100) * WINDOW;
    return nudgeFor(controller.decide({ usedTokens: used, windowTokens: WINDOW }), facts(used), state)?.level ?? null;
  });
}

describe('nudgeFor', () => {
  it('offers once past the trigger, once more past the safety net, and again only after going under the target', () => {
    assert.deepEqual(walk([50, 84, 86, 88, 90, 96, 97, 80, 70, 86, 59, 86]), [
      null,
      null,
      'trigger',
      null,
      null,
      'safety-net',
      null,
      null,
      null,
      null,
      null,
      'trigger',
    ]);
  });

  it('says how full, and that Claude Code would compact without the focus', () => {
    const state: NudgeState = { offered: null };
    const used = 0.86 * WINDOW;
    const nudge = nudgeFor(new TriggerController().decide({ usedTokens: used, windowTokens: WINDOW }), { ...facts(used), agentName: 'Claude Code' }, state);
    assert.equal(
      nudge?.message,
      'Context Lens: the context is 86 % full (860k/1000k), past your trigger. Compact with a focus now? Claude Code compacts by itself, without your focus, at 967k.',
    );
  });

  it('stays silent while the circuit breaker is open after low-savings compactions', () => {
    const controller = new TriggerController();
    for (let run = 0; run < 2; run++) controller.record({ status: 'compacted', metrics: { savingsPercent: 2, tokensAfter: 0.86 * WINDOW } });
    assert.deepEqual(walk([86, 90], controller), [null, null]);
  });
});
