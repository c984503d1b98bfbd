import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { breakEven } from '../../../src/pricing/breakEven';
import { breakEvenSentence } from '../../../src/protocol/format';

const rates = { cacheWrite: 3.75e-6, cacheRead: 0.3e-6 };

describe('breakEven', () => {
  it('one-off: the kept context written instead of read; saving: the removed tokens no longer read', () => {
    const figures = breakEven(150_000, 100_000, rates);
    assert.ok(Math.abs(figures.oneOffUsd - 100_000 * 3.45e-6) < 1e-12);
    assert.ok(Math.abs(figures.savingPerCallUsd - 50_000 * 0.3e-6) < 1e-12);
    // 0.345 / 0.015 = 23 calls.
    assert.equal(figures.breakEvenCalls, 23);
  });

  it('never pays off when nothing is removed', () => {
    assert.equal(breakEven(100_000, 100_000, rates).breakEvenCalls, null);
    assert.equal(breakEven(100_000, 120_000, rates).breakEvenCalls, null);
  });

  it('reads in one go', () => {
    assert.equal(
      breakEvenSentence({ oneOffUsd: 0.41, savingPerCallUsd: 0.12, breakEvenCalls: 4 }),
      'costs $0.41 once, saves $0.12 per call: pays off after 4 calls',
    );
    assert.equal(
      breakEvenSentence({ oneOffUsd: 0, savingPerCallUsd: 0.12, breakEvenCalls: 1 }),
      'costs $0.00 once, saves $0.12 per call: pays off after 1 call',
    );
    assert.equal(breakEvenSentence({ oneOffUsd: 0.2, savingPerCallUsd: 0, breakEvenCalls: null }), 'costs $0.20 once, saves $0.00 per call: never pays off');
  });
});
