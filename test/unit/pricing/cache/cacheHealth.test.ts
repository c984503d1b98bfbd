// Issue 39, item 1: which call missed the prompt cache, why, and what it cost beyond a hit.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { asHit, cacheHealth, cacheSentence, missSentence, type CacheCall } from '../../../../src/pricing/cache/cacheHealth';
import { BUNDLED_PRICES } from '../../../../src/pricing/bundledPrices';
import { indexPrices } from '../../../../src/pricing/prices';

const index = indexPrices(BUNDLED_PRICES);
const SONNET = 'claude-sonnet-4-5-20250929';
const at = (minutes: number): string => new Date(Date.UTC(2026, 0, 1) + minutes * 60_000).toISOString();
const call = (minute: number, read: number, write: number, extra: Partial<CacheCall> & { input?: number; hour?: number } = {}): CacheCall => ({
  usage: {
    inputTokens: extra.input ?? 10,
    cacheCreationInputTokens: write,
    cacheReadInputTokens: read,
    outputTokens: 100,
    ...(extra.hour ? { cacheWrite1hTokens: extra.hour } : {}),
  },
  model: extra.model ?? SONNET,
  at: at(minute),
  ...(extra.prefix !== undefined ? { prefix: extra.prefix } : {}),
});
const usd = (value: number): string => `$${value.toFixed(2)}`;

describe('cacheHealth', () => {
  it('a call that reads less than half of what the previous one sent is a miss; the cause from the gap, the model, a compaction, the prefix', () => {
    const calls = [
      call(0, 0, 20_000),
      call(1, 20_000, 1_000), // hit
      call(9, 0, 21_500), // 8 min later, written with 5 min: idle
      call(10, 21_500, 500, { model: SONNET }),
      call(11, 0, 22_500, { model: 'claude-opus-4-5-20251101' }), // model
      call(12, 22_500, 100, { model: 'claude-opus-4-5-20251101' }),
      call(14, 3_000, 5_000, { model: 'claude-opus-4-5-20251101' }), // compaction at minute 13
      call(15, 0, 8_500, { model: 'claude-opus-4-5-20251101', prefix: 'b' }), // no prefix before: unknown
      call(16, 0, 8_500, { model: 'claude-opus-4-5-20251101', prefix: 'c' }), // prefix changed
    ];
    const health = cacheHealth(index, calls, [{ at: at(13) }]);
    assert.deepEqual(
      health.misses.map((miss) => [miss.call, miss.cause]),
      [
        [2, 'idle'],
        [4, 'model'],
        [6, 'compaction'],
        [7, 'unknown'],
        [8, 'prefix'],
      ],
    );
    assert.equal(health.misses[0]?.gapMs, 8 * 60_000);
    // It reads what the previous call sent (21,010), out of what it wrote.
    assert.equal(health.misses[0]?.rewrittenTokens, 21_010);
    // Sonnet 4.5: write $3.75, read $0.30 a million tokens.
    assert.ok(Math.abs((health.misses[0]?.usd ?? 0) - (21_010 * (3.75 - 0.3)) / 1e6) < 1e-12);
    assert.match(missSentence(health.misses[0]!, usd), /^cache miss after 8 min idle: \+\$0\.07$/);
    assert.equal(health.byCause.idle, 1);
    assert.match(cacheSentence(health, usd), /^cache \d+ % · 5 misses cost \$\d+\.\d\d, 1 of them idle gaps$/);
  });

  it('a 1-hour write keeps the cache an hour: a 30-minute gap is then no idle miss', () => {
    const health = cacheHealth(index, [call(0, 0, 20_000, { hour: 20_000 }), call(1, 20_000, 10, { hour: 10 }), call(31, 0, 20_500), call(100, 0, 20_600)]);
    assert.deepEqual(
      health.misses.map((miss) => [miss.cause, miss.lifetimeMs]),
      [
        ['unknown', 3_600_000],
        ['idle', 300_000],
      ],
    );
    // The 1-hour write priced at its own rate: the rewrite moves 1-hour tokens first.
    assert.deepEqual(asHit({ inputTokens: 5, cacheCreationInputTokens: 100, cacheWrite1hTokens: 60, cacheReadInputTokens: 0, outputTokens: 1 }, 80), {
      inputTokens: 5,
      cacheCreationInputTokens: 20,
      cacheWrite1hTokens: 0,
      cacheReadInputTokens: 80,
      outputTokens: 1,
    });
  });

  it('OpenAI and Gemini (no cache writes: cached tokens inside the input): the rest was paid as input', () => {
    const gpt = 'gpt-5';
    const health = cacheHealth(index, [
      call(0, 0, 0, { input: 30_000, model: gpt }),
      call(1, 29_000, 0, { input: 2_000, model: gpt }),
      call(20, 0, 0, { input: 32_000, model: gpt }),
    ]);
    assert.equal(health.misses.length, 1);
    assert.equal(health.misses[0]?.cause, 'idle');
    assert.equal(health.misses[0]?.rewrittenTokens, 31_000);
    assert.ok((health.misses[0]?.usd ?? 0) > 0);
  });

  it('no call read from the cache: caching was off, nothing counts as a miss; tiny prompts are never cached', () => {
    const off = cacheHealth(index, [call(0, 0, 0, { input: 50_000 }), call(30, 0, 0, { input: 60_000 })]);
    assert.equal(off.cachingOff, true);
    assert.equal(off.misses.length, 0);
    assert.match(cacheSentence(off, usd), /caching off/);
    assert.equal(cacheHealth(index, [call(0, 0, 500), call(30, 400, 0), call(31, 0, 600)]).misses.length, 0);
  });

  it('a fork of ours: its first call rewrites after our compaction; an unpriced model has tokens, no dollars', () => {
    const fork = cacheHealth(index, [call(0, 2_000, 30_000)], [], { startsAfterCompaction: true });
    assert.deepEqual(
      fork.misses.map((miss) => [miss.cause, miss.rewrittenTokens]),
      [['compaction', 30_010]],
    );
    const unpriced = cacheHealth(index, [call(0, 0, 20_000, { model: 'glm-4.7' }), call(10, 0, 20_000, { model: 'glm-4.7' })]);
    assert.equal(unpriced.misses.length, 0, 'never read: caching off');
    const priced = cacheHealth(index, [
      call(0, 0, 20_000, { model: 'glm-4.7' }),
      call(1, 20_000, 10, { model: 'glm-4.7' }),
      call(10, 0, 20_000, { model: 'glm-4.7' }),
    ]);
    assert.equal(priced.misses[0]?.usd, null);
    assert.equal(priced.usd, 0);
    assert.match(missSentence(priced.misses[0]!, usd), /tokens rewritten/);
  });
});
