import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { gauge } from '../../../src/cli/format';

const barOf = (text: string): string => /\[(.*)\]/.exec(text)?.[1] ?? '';
const marksIn = (text: string): number => [...barOf(text)].filter((cell) => cell === '│').length;

describe('the text gauge', () => {
  it("draws the agent's own point inside the window and names it", () => {
    const shown = gauge(100_000, 200_000, 167_000, 'Claude Code');
    assert.match(shown, /83\.5 % Claude Code auto-compact \(167,000\)/);
    assert.equal(marksIn(shown), 4);
  });

  it("draws no mark for a point beyond the window (an override smaller than the model's) and says where it is", () => {
    const shown = gauge(20_000, 44_000, 524_288, 'Gemini CLI');
    assert.match(shown, /Gemini CLI auto-compacts at 524,288, beyond this window/);
    assert.doesNotMatch(shown, /1191/);
    assert.equal(marksIn(shown), 3, 'target, trigger and safety net only: none at the bar’s end');
  });

  it('says the agent has no point in a window too small for one', () => {
    assert.match(gauge(1_000, 10_000, 0, 'Claude Code'), /no Claude Code auto-compact point in this window/);
  });
});
