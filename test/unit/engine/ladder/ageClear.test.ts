import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runAgeClear } from '../../../../src/engine/ladder/ageClear';
import { CLEARED_PLACEHOLDER } from '../../../../src/engine/options';
import { assistant, big, build, read, user } from '../support/build';
import { ladderState } from './helpers';

const conversation = [
  user('go'),
  ...['1', '2', '3', '4', '5', '6'].flatMap((n) => read(`t${n}`, `/f${n}.ts`, big(`out ${n}`, 4_000))),
  user('ok'),
  assistant('done'),
];

describe('tier 2: age-based clearing', () => {
  it('clears results older than the last N tool uses', () => {
    const state = ladderState(build(conversation), { ageClear: { keepLastToolUses: 3, clearAtLeastTokens: 0 } });
    const report = runAgeClear(state);
    const cleared = state.planned.filter((planned) => planned.tier === 'age-clear');
    assert.equal(report.acted, 3);
    assert.deepEqual(
      cleared.map((planned) => planned.item.text.split('\n')[0]),
      ['out 1', 'out 2', 'out 3'],
    );
    // Claude Code's placeholder, then what the output was and where the archive keeps it (issue 13).
    for (const planned of cleared)
      assert.match(
        planned.text,
        new RegExp(`^\\[Old tool result content cleared\\] \\S+ .*\\(\\d[\\d,]* bytes, ~[\\d,]+ tokens\\); ref: archive-pending#${planned.item.id}$`),
      );
    assert.ok(cleared.every((planned) => planned.text.startsWith(CLEARED_PLACEHOLDER)));
  });

  it('skips when the saving would not pay for the cache break', () => {
    const state = ladderState(build(conversation), { ageClear: { clearAtLeastTokens: 1_000_000 } });
    const report = runAgeClear(state);
    assert.equal(report.acted, 0);
    assert.match(report.note ?? '', /^skipped: would clear only/);
  });

  it('never clears excluded tools', () => {
    const state = ladderState(build(conversation), { ageClear: { excludeTools: ['Read'], clearAtLeastTokens: 0 } });
    assert.equal(runAgeClear(state).acted, 0);
  });
});
