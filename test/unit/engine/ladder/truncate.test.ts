import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runDedupe, runTruncate, truncateText } from '../../../../src/engine/ladder/truncate';
import { assistant, build, call, read, results, user } from '../support/build';
import { ladderState } from './helpers';

const lines = (count: number, label: string) => Array.from({ length: count }, (_, index) => `${label} line ${index}`).join('\n');

describe('tier 3: truncation', () => {
  it('keeps head, tail or both with a marker saying how much was cut', () => {
    const text = lines(1_000, 'L');
    const head = truncateText(text, 4_000, 'head', 400).text;
    const tail = truncateText(text, 4_000, 'tail', 400).text;
    const both = truncateText(text, 4_000, 'head+tail', 400).text;
    assert.ok(head.startsWith('L line 0\n') && /\[… [\d,]+ tokens \([\d,]+ chars\) elided …\]$/.test(head));
    assert.ok(tail.endsWith('L line 999') && tail.startsWith('[…'));
    assert.ok(both.startsWith('L line 0') && both.endsWith('L line 999') && both.includes('elided'));
    assert.ok(both.length < text.length / 5);
    assert.equal(truncateText('short', 2, 'head', 400).text, 'short');
  });

  it('truncates outputs above the category cap, biggest first, with a readable reason', () => {
    const context = build([
      user('go'),
      ...read('r1', '/big.ts', lines(2_000, 'R')),
      assistant(call('b1', 'Bash', { command: 'make' })),
      results({ id: 'b1', output: `${lines(2_000, 'B')}\nexit 2` }),
      user('ok'),
      assistant('done'),
    ]);
    const state = ladderState(context);
    const report = runTruncate(state);
    assert.equal(report.acted, 2);
    const byTool = new Map(state.planned.filter((planned) => planned.tier === 'truncate').map((planned) => [planned.item.toolName, planned]));
    assert.equal(byTool.get('Read')?.reason, 'truncated head+tail (cap 2,000 tokens)');
    assert.equal(byTool.get('Bash')?.reason, 'truncated tail only (cap 2,000 tokens)');
    assert.ok(byTool.get('Bash')?.text.endsWith('exit 2'));
    assert.ok((byTool.get('Read')?.tokensAfter ?? Infinity) <= 2_100);
  });

  it('uses a custom pruner when given (S25)', () => {
    const state = ladderState(build([user('go'), ...read('r1', '/big.ts', lines(2_000, 'R')), user('ok'), assistant('done')]));
    runTruncate(state, (item) => `pruned ${item.toolName}`);
    assert.ok(state.planned.some((planned) => planned.text === 'pruned Read' && planned.reason === 'pruned by custom tool pruner'));
  });

  it('replaces older identical outputs by a reference to the newest', () => {
    const same = lines(50, 'S');
    const state = ladderState(build([user('go'), ...read('d1', '/x', same), ...read('d2', '/y', same), user('ok'), assistant('done')]));
    const report = runDedupe(state);
    assert.equal(report.acted, 1);
    const copy = state.planned.find((planned) => planned.tier === 'dedupe');
    assert.match(copy?.text ?? '', /^\[Identical to the output of #\d+; omitted here\.\]$/);
    assert.match(copy?.reason ?? '', /^duplicate of #\d+ \(identical output\)$/);
  });
});
