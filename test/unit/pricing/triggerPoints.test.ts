import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkTriggerSettings, effectiveTrigger } from '../../../src/pricing/triggerPoints';

const defaults = { thresholdPercent: 85, thresholdSet: false, targetPercent: 60, safetyNetPercent: 95, defaultTargetPercent: 60 };

describe('trigger points', () => {
  it("left at its default, the trigger sits 5 points below Claude Code's own point and says so", () => {
    const trigger = effectiveTrigger(defaults, 60, 83.5, 'Claude Code');
    assert.equal(trigger.percent, 78.5);
    assert.match(trigger.note ?? '', /5 points below Claude Code's auto-compact point \(83\.5 %\)/);
    // Far below the agent's point the setting stands; unknown point, the setting stands.
    assert.deepEqual(effectiveTrigger(defaults, 60, 95), { percent: 85, note: null });
    assert.deepEqual(effectiveTrigger(defaults, 60, null), { percent: 85, note: null });
    // Never at or below the target.
    assert.equal(effectiveTrigger(defaults, 80, 83.5).percent, 81);
  });

  it('says so when the agent compacts below our target (a Codex limit set low), naming that agent', () => {
    const early = effectiveTrigger(defaults, 60, 7.7, 'Codex');
    assert.equal(early.percent, 85);
    assert.match(early.note ?? '', /^Codex compacts by itself at 7\.7 %, below our target \(60 %\)/);
  });

  it('a trigger the person set is used as set, with a word when Claude Code would compact first', () => {
    assert.deepEqual(effectiveTrigger({ thresholdPercent: 70, thresholdSet: true }, 60, 83.5), { percent: 70, note: null });
    const late = effectiveTrigger({ thresholdPercent: 90, thresholdSet: true }, 60, 83.5, 'Claude Code');
    assert.equal(late.percent, 90);
    assert.match(late.note ?? '', /Claude Code will compact first/);
  });

  it('refuses a target at or above the trigger and a safety net below it, saying which value is used', () => {
    const checked = checkTriggerSettings({ ...defaults, targetPercent: 90, safetyNetPercent: 50 });
    assert.equal(checked.targetPercent, 60);
    assert.equal(checked.safetyNetPercent, 85);
    assert.equal(checked.problems.length, 2);
    assert.match(checked.problems[0] ?? '', /^Target 90 % is not below the trigger 85 % .*using 60 %/);
    assert.match(checked.problems[1] ?? '', /^Safety net 50 % is below the trigger 85 %: using 85 %/);
    // The default target is no use under a low trigger: ten points below it.
    assert.equal(checkTriggerSettings({ ...defaults, thresholdPercent: 50, targetPercent: 55 }).targetPercent, 40);
    assert.deepEqual(checkTriggerSettings(defaults).problems, []);
  });
});
