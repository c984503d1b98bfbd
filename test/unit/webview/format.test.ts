import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { beforeAfter, clockTime, eventTime, fillSource, fillSummary, newestFirst, plural, savingsText, triggerText } from '../../../webview/logic/format';

describe('webview format', () => {
  it('keeps the exact fill summary the e2e suite and CLI agree on', () => {
    assert.equal(fillSummary({ usedTokens: 124_310, windowTokens: 200_000, source: 'usage' }), '124,310 / 200,000 tokens · 62.2 %');
    assert.equal(fillSource({ usedTokens: 1, windowTokens: 2, source: 'usage' }), "(exact, from the last response's usage)");
    assert.equal(fillSource({ usedTokens: 1, windowTokens: 2, source: 'estimate' }), '(estimate)');
  });

  it('phrases savings as a reduction with a real minus sign', () => {
    assert.equal(savingsText(124_310, 71_910, 42.15), '−52,400 tokens (−42 %)');
    assert.equal(savingsText(100, 100, 0), '+0 tokens (0 %)');
    assert.equal(beforeAfter(96_000, 41_000, 57.3), '96k → 41k (−57 %)');
    assert.equal(beforeAfter(null, 41_000, null), '? → 41k');
  });

  it('shows a clock time or a dash for missing and invalid timestamps', () => {
    assert.match(clockTime('2025-05-01T10:42:00Z'), /^\d\d:\d\d$/);
    assert.equal(clockTime(null), '—');
    assert.equal(clockTime('not a date'), '—');
  });

  it('pluralises counts', () => {
    assert.equal(plural(1, 'item'), '1 item');
    assert.equal(plural(3, 'item'), '3 items');
  });
});

describe('eventTime', () => {
  it('says the day when it is not today, and the year when it is not this one', () => {
    const now = new Date(2026, 10, 26, 16, 0);
    assert.equal(eventTime(new Date(2026, 10, 26, 15, 27).toISOString(), now), '15:27');
    assert.equal(eventTime(new Date(2026, 10, 24, 15, 50).toISOString(), now), 'Nov 24, 15:50');
    assert.equal(eventTime(new Date(2025, 0, 3, 9, 5).toISOString(), now), 'Jan 3 2025, 09:05');
    assert.equal(eventTime(null, now), '—');
    assert.equal(eventTime('not a date', now), '—');
  });

  it('says how a compaction started in plain words', () => {
    assert.deepEqual(['auto', 'manual', 'fork', 'other'].map(triggerText), ['by itself', 'when asked', 'fork found beside this session', 'other']);
  });
});

describe('newestFirst', () => {
  it('orders by time descending and puts untimed entries last, stably', () => {
    const entries = [
      { id: 'a', at: '2025-05-01T09:00:00Z' },
      { id: 'b', at: null },
      { id: 'c', at: '2025-05-01T10:00:00Z' },
      { id: 'd', at: null },
    ];
    assert.deepEqual(
      newestFirst(entries).map((entry) => entry.id),
      ['c', 'a', 'b', 'd'],
    );
  });
});
