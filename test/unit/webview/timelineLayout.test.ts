import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { axisTicks, barAt, barsPath, CALLS_NOTE, callCount, callsText, MIN_SLOTS, slotsOf, timelineBars } from '../../../webview/logic/timelineLayout';

const point = (usedTokens: number) => ({ at: null, usedTokens, event: null });

describe('timeline layout', () => {
  it('scales bars to the window, or to the peak when a call overshot it', () => {
    assert.deepEqual(
      timelineBars([point(50), point(100)], 200).map((bar) => bar.height),
      [0.25, 0.5],
    );
    assert.deepEqual(
      timelineBars([point(50), point(400)], 200).map((bar) => bar.height),
      [0.125, 1],
    );
    assert.deepEqual(timelineBars([], null), []);
  });

  it('draws all bars as one path', () => {
    assert.equal(barsPath(timelineBars([point(100), point(200)], 200), 100, 10), 'M0 10h40v-5h-40zM50 10h40v-10h-40z');
    assert.equal(barsPath([], 100, 10), '');
  });

  it('gives a few calls narrow bars at the left instead of the whole width', () => {
    const bars = timelineBars([point(100), point(200)], 200);
    assert.equal(slotsOf(bars), MIN_SLOTS);
    assert.match(barsPath(bars, 600, 10, slotsOf(bars)), /^M0 10h8v-5h-8zM10 10h8v-10h-8z$/);
  });

  it('finds the call under the pointer, and the last one past it', () => {
    assert.equal(barAt(0, 2, 60), 0);
    assert.equal(barAt(1 / 60 + 0.001, 2, 60), 1);
    assert.equal(barAt(0.9, 2, 60), 1);
    assert.equal(barAt(0.5, 0, 60), null);
    assert.equal(barAt(0.99, 100, 60), 99);
  });

  it("numbers the calls only: a compaction's point is drawn but is no call", () => {
    const compaction = { at: null, usedTokens: 40, event: { kind: 'ours' as const, label: '100 → 40 tokens' } };
    const live = { at: null, usedTokens: 90, event: { kind: 'live' as const, label: '2 stubbed' } };
    const points = [point(100), compaction, point(50), live];
    assert.deepEqual(
      timelineBars(points, 200).map((bar) => bar.call),
      [1, null, 2, 3],
    );
    assert.equal(callCount(points), 3);
    // A fork opens with our compaction: "0 calls" until the agent answers, not "1 call".
    assert.equal(callCount([compaction]), 0);
  });

  it('labels the axis at the scale, its half and zero', () => {
    assert.deepEqual(axisTicks(200_000), [200_000, 100_000, 0]);
  });
});

describe('callsText: which calls the timeline counts', () => {
  const call = { at: null, usedTokens: 1000, event: null };
  it('says "since the last compaction" when the timeline holds one, so the session cost\'s larger count is no contradiction', () => {
    assert.equal(callsText([call, { at: null, usedTokens: 500, event: { kind: 'agent', label: 'x' } }, call]), '2 calls since the last compaction');
    assert.equal(callsText([call]), '1 call of the conversation');
    assert.match(CALLS_NOTE, /subagents' and side calls included/);
  });
});
