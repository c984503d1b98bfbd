import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { costOfCall, ratesOf } from '../../../src/pricing/callCost';
import { indexPrices, type PriceTable } from '../../../src/pricing/prices';
import { sessionCost } from '../../../src/pricing/sessionCost';

const table: PriceTable = {
  source: 'test',
  taken: '2026-01-01',
  models: [
    {
      model: 'claude-test',
      periods: [
        {
          input: 3,
          output: 15,
          cacheWrite: 3.75,
          cacheWrite1h: 6,
          cacheRead: 0.3,
          longContext: { aboveTokens: 200_000, input: 6, output: 22.5, cacheWrite: 7.5, cacheWrite1h: 12, cacheRead: 0.6 },
        },
      ],
    },
    { model: 'gpt-test', periods: [{ input: 1.25, output: 10, cacheRead: 0.125 }] },
  ],
};
const index = indexPrices(table);
const usage = (input: number, write: number, read: number, output: number, hour = 0) => ({
  inputTokens: input,
  cacheCreationInputTokens: write,
  cacheReadInputTokens: read,
  outputTokens: output,
  ...(hour > 0 ? { cacheWrite1hTokens: hour } : {}),
});
const close = (actual: number, expected: number) => assert.ok(Math.abs(actual - expected) < 1e-12, `${actual} ≠ ${expected}`);

describe('costOfCall', () => {
  it('prices each part of the usage at its rate', () => {
    const cost = costOfCall(index, { usage: usage(1_000, 10_000, 100_000, 2_000), model: 'claude-test-20260101', at: null })!;
    close(cost.input, 0.003);
    close(cost.cacheWrite, 0.0375);
    close(cost.cacheRead, 0.03);
    close(cost.output, 0.03);
    close(cost.usd, 0.1005);
    close(cost.prompt, cost.usd - cost.output);
    assert.equal(cost.longContext, false);
  });

  it('prices 1-hour cache writes at their own rate', () => {
    const cost = costOfCall(index, { usage: usage(0, 10_000, 0, 0, 4_000), model: 'claude-test', at: null })!;
    close(cost.cacheWrite, 6_000 * 3.75e-6 + 4_000 * 6e-6);
  });

  it('bills a whole call past the long-context threshold at the long-context rates', () => {
    const below = costOfCall(index, { usage: usage(0, 0, 200_000, 1_000), model: 'claude-test', at: null })!;
    const above = costOfCall(index, { usage: usage(1, 0, 200_000, 1_000), model: 'claude-test', at: null })!;
    assert.equal(below.longContext, false);
    assert.equal(above.longContext, true);
    close(above.cacheRead, 200_000 * 0.6e-6);
    close(above.output, 1_000 * 22.5e-6);
  });

  it('summed calls (count) are priced as the calls they are, not as one call past the tier', () => {
    const one = costOfCall(index, { usage: usage(0, 0, 150_000, 100), model: 'claude-test', at: null })!;
    const three = costOfCall(index, { usage: usage(0, 0, 450_000, 300), model: 'claude-test', at: null, count: 3 })!;
    assert.equal(three.longContext, false);
    close(three.usd, 3 * one.usd);
  });

  it('bills cache writes as input where the provider has no write price', () => {
    const rates = ratesOf(table.models[1]!.periods[0]!, 1_000);
    assert.equal(rates.cacheWrite, rates.input);
    assert.equal(rates.cacheWrite1h, rates.input);
  });

  it('has no price for an unknown or missing model', () => {
    assert.equal(costOfCall(index, { usage: usage(1, 0, 0, 1), model: 'mystery-1', at: null }), null);
    assert.equal(costOfCall(index, { usage: usage(1, 0, 0, 1), model: null, at: null }), null);
  });
});

describe('sessionCost', () => {
  it('sums the priced calls by model and names the models it has no price for', () => {
    const calls = [
      { usage: usage(100_000, 0, 0, 0), model: 'claude-test', at: null },
      { usage: usage(0, 0, 0, 1_000_000), model: 'gpt-test', at: null },
      { usage: usage(5, 0, 0, 5), model: 'mystery-1', at: null },
      { usage: usage(5, 0, 0, 5), model: 'mystery-1', at: null },
    ];
    const { total, perCall } = sessionCost(index, calls);
    close(total.usd, 10.3);
    close(total.promptUsd, 0.3);
    close(total.outputUsd, 10);
    assert.equal(total.calls, 4);
    assert.deepEqual(total.unpriced, [{ model: 'mystery-1', calls: 2 }]);
    assert.deepEqual(
      total.byModel.map((row) => row.model),
      ['gpt-test', 'claude-test', 'mystery-1'],
    );
    assert.equal(perCall[2], null);
  });
});
