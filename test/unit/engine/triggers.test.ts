import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TriggerController } from '../../../src/engine/triggers';

const fill = (percent: number, windowTokens = 200_000) => ({ usedTokens: (windowTokens * percent) / 100, windowTokens });
const low = { status: 'compacted' as const, metrics: { savingsPercent: 3, tokensAfter: 168_000 } };

describe('TriggerController', () => {
  it('compacts at the threshold down to the target (hysteresis)', () => {
    const controller = new TriggerController();
    assert.equal(controller.decide(fill(84)).action, 'none');
    const decision = controller.decide(fill(85));
    assert.deepEqual([decision.action, decision.trigger, decision.targetTokens], ['compact', 'auto', 120_000]);
    assert.throws(() => new TriggerController({ thresholdPercent: 60, targetPercent: 60 }), /hysteresis/);
  });

  it('only fires at the safety net when the agent is the primary trigger', () => {
    const controller = new TriggerController({ primary: 'agent' });
    assert.equal(controller.decide(fill(90)).action, 'none');
    assert.equal(controller.decide(fill(95)).trigger, 'safety-net');
  });

  it('opens the circuit breaker after consecutive low savings and resets when the context grows', () => {
    const controller = new TriggerController();
    controller.record(low);
    assert.equal(controller.decide(fill(86)).action, 'compact');
    controller.record(low);
    assert.equal(controller.snapshot.breakerOpen, true);
    assert.equal(controller.decide(fill(86)).action, 'blocked');
    // A little growth is not enough; growth worth the minimum saving re-arms it.
    assert.equal(controller.decide({ usedTokens: 170_000, windowTokens: 200_000 }).action, 'blocked');
    assert.equal(controller.decide({ usedTokens: 190_000, windowTokens: 200_000 }).action, 'compact');
    assert.equal(controller.snapshot.lowSavingsStreak, 0);
  });

  it('resets the streak on a good compaction and ignores failures', () => {
    const controller = new TriggerController();
    controller.record(low);
    controller.record({ status: 'failed-open', metrics: { savingsPercent: 0, tokensAfter: 0 } });
    controller.record({ status: 'compacted', metrics: { savingsPercent: 30, tokensAfter: 100_000 } });
    assert.equal(controller.snapshot.lowSavingsStreak, 0);
  });

  it('triggers 10 points earlier under budget pressure and always allows manual runs', () => {
    assert.equal(new TriggerController({ budgetPressure: true }).decide(fill(76)).action, 'compact');
    const manual = new TriggerController().manual(fill(20), 'focus on auth');
    assert.deepEqual([manual.action, manual.trigger, manual.focus], ['compact', 'manual', 'focus on auth']);
  });
});
