import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fillLevel, gaugeMarks, gaugeSegments, placeLabels } from '../../../webview/logic/gaugeLayout';
import { legendOf } from '../../../src/host/context/derive';
import { formatTokens } from '../../../src/protocol/format';

const thresholds = { triggerPercent: 85, targetPercent: 60, safetyNetPercent: 95, agentAutoCompactPercent: 83.5, notes: [] };

describe('gaugeSegments', () => {
  it('stacks categories in protocol order, then free, then reserved output', () => {
    const segments = gaugeSegments(
      { usedTokens: 30_000, windowTokens: 100_000, source: 'usage' },
      [
        { category: 'tool_result', tokens: 20_000 },
        { category: 'system', tokens: 10_000 },
        { category: 'user', tokens: 0 },
      ],
      20_000,
    );
    assert.deepEqual(
      segments.map((segment) => [segment.key, segment.percent]),
      [
        ['system', 10],
        ['tool_result', 20],
        ['free', 50],
        ['reserved', 20],
      ],
    );
  });

  it('spreads a stale breakdown over the exact total, so the bar always matches the number', () => {
    const segments = gaugeSegments(
      { usedTokens: 60_000, windowTokens: 100_000, source: 'usage' },
      [
        { category: 'tool_result', tokens: 20_000 },
        { category: 'system', tokens: 10_000 },
      ],
      20_000,
    );
    assert.deepEqual(
      segments.map((segment) => [segment.key, segment.tokens]),
      [
        ['system', 20_000],
        ['tool_result', 40_000],
        ['free', 20_000],
        ['reserved', 20_000],
      ],
    );
  });

  it('the legend and the hover say the breakdown\'s own count, as the status bar and the CLI do (was "assistant 620" against 621)', () => {
    const breakdown = [
      { category: 'system' as const, tokens: 33_287 },
      { category: 'assistant' as const, tokens: 621 },
    ];
    // The exact total moved before the breakdown was recounted: the bar spreads the shares over it.
    const segments = gaugeSegments({ usedTokens: 33_860, windowTokens: 200_000, source: 'usage' }, breakdown, 0);
    const assistant = segments.find((segment) => segment.key === 'assistant');
    assert.equal(assistant?.tokens, 620);
    assert.equal(assistant?.count, 621);
    assert.equal(legendOf(breakdown, formatTokens), 'system prompt 33k · assistant 621');
  });

  it('draws one used segment without a breakdown and never overflows the bar', () => {
    const segments = gaugeSegments({ usedTokens: 150, windowTokens: 100, source: 'estimate' }, [], 10);
    assert.deepEqual(
      segments.map((segment) => [segment.key, segment.tokens]),
      [
        ['used', 150],
        ['free', 0],
        ['reserved', 0],
      ],
    );
    assert.equal(
      segments.reduce((sum, segment) => sum + segment.percent, 0),
      100,
    );
  });
});

const claude = { name: 'Claude Code', pointSetBy: 'the CLAUDE_AUTOCOMPACT_PCT_OVERRIDE environment variable' };

describe('gaugeMarks', () => {
  it('names every mark with its meaning and setting', () => {
    const marks = gaugeMarks(thresholds, claude);
    assert.deepEqual(
      marks.map((mark) => [mark.kind, mark.percent, mark.label]),
      [
        ['target', 60, 'target 60 %'],
        ['trigger', 85, 'our trigger 85 %'],
        ['safety', 95, 'safety net 95 %'],
        ['agent', 83.5, 'Claude Code 83.5 %'],
      ],
    );
    assert.match(marks[0]!.title, /contextLens\.trigger\.targetPercent/);
    assert.match(marks[1]!.title, /contextLens\.trigger\.thresholdPercent/);
    assert.match(marks[2]!.title, /contextLens\.trigger\.safetyNetPercent/);
    assert.match(marks[3]!.title, /Claude Code/);
  });

  it("names another agent's own point after that agent and what sets it", () => {
    const mark = gaugeMarks(thresholds, { name: 'Codex CLI', pointSetBy: "model_auto_compact_token_limit in Codex's config.toml" })[3]!;
    assert.equal(mark.label, 'Codex CLI 83.5 %');
    assert.match(mark.title, /^Codex CLI compacts by itself/);
    assert.match(mark.title, /model_auto_compact_token_limit/);
    assert.doesNotMatch(mark.title, /Claude/);
  });

  it("has no mark for the agent's point when the agent point is unknown or none", () => {
    assert.equal(gaugeMarks({ ...thresholds, agentAutoCompactPercent: null }, claude).length, 3);
    assert.equal(gaugeMarks({ ...thresholds, agentAutoCompactPercent: 0 }, claude).length, 3);
  });
});

describe('placeLabels', () => {
  const marks = gaugeMarks(thresholds, claude);
  const rows = (across: number) => Object.fromEntries(placeLabels(marks, across).map((label) => [label.kind, label.row]));

  it("puts close marks on different lines, and each line's labels clear each other", () => {
    // 83.5 (Claude Code), 85 (our trigger) and 95 (safety net) are close: three lines at a typical width.
    assert.deepEqual(rows(150), { target: 0, agent: 0, trigger: 1, safety: 2 });
    for (const across of [40, 80, 150, 400, 2000]) {
      const placed = placeLabels(marks, across);
      const byRow = new Map<number, [number, number][]>();
      for (const { kind, row, align } of placed) {
        const mark = marks.find((candidate) => candidate.kind === kind)!;
        const width = ((mark.label.length + 1) / across) * 100;
        const from = align === 'start' ? mark.percent : align === 'end' ? mark.percent - width : mark.percent - width / 2;
        for (const [start, end] of byRow.get(row) ?? [])
          assert.ok(from + width <= start + 1e-9 || from >= end - 1e-9, `${kind} overlaps on line ${row} at ${across}`);
        byRow.set(row, [...(byRow.get(row) ?? []), [from, from + width]]);
      }
    }
    // Wide enough, everything fits on one line.
    assert.deepEqual(new Set(Object.values(rows(4000))), new Set([0]));
  });

  it('hangs a label near an end inward', () => {
    const placed = placeLabels(gaugeMarks({ ...thresholds, safetyNetPercent: 99 }, claude), 150);
    assert.equal(placed.find((label) => label.kind === 'safety')?.align, 'end');
  });
});

describe('fillLevel', () => {
  it('warns past our trigger and errs past the agent point', () => {
    const fill = (usedTokens: number) => ({ usedTokens, windowTokens: 100, source: 'usage' as const });
    assert.equal(fillLevel(fill(50), thresholds), 'ok');
    assert.equal(fillLevel(fill(84), { ...thresholds, agentAutoCompactPercent: null, triggerPercent: 80 }), 'warning');
    assert.equal(fillLevel(fill(84), thresholds), 'error');
  });
});
