import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { ratesOf } from '../../../src/pricing/callCost';
import { itemCosts, type CostedItem, type LiveCallInput } from '../../../src/pricing/itemCost';

const period = { input: 3, output: 15, cacheWrite: 3.75, cacheWrite1h: 6, cacheRead: 0.3 };
const call = (from: number, input: number, write: number, read: number, hour = 0): LiveCallInput => ({
  from,
  model: 'm',
  at: null,
  usage: {
    inputTokens: input,
    cacheCreationInputTokens: write,
    cacheReadInputTokens: read,
    outputTokens: 10,
    ...(hour > 0 ? { cacheWrite1hTokens: hour } : {}),
  },
});
const close = (actual: number, expected: number, epsilon = 1e-12) => assert.ok(Math.abs(actual - expected) <= epsilon, `${actual} ≠ ${expected}`);

describe('itemCosts', () => {
  it('an item is written once, then read while it stays in the prompt', () => {
    // Head 1,000 tokens; message 0 (2,000) before the first response at 1; message 2 (500) after it.
    const items: CostedItem[] = [
      { messageIndex: -1, tokens: 1_000 },
      { messageIndex: 0, tokens: 2_000 },
      { messageIndex: 1, tokens: 100 },
      { messageIndex: 2, tokens: 500 },
    ];
    const calls = [call(1, 0, 3_000, 0), call(3, 0, 600, 3_000)];
    const costs = itemCosts(
      items,
      calls,
      calls.map((c) => ratesOf(period, c.usage.inputTokens + c.usage.cacheCreationInputTokens + c.usage.cacheReadInputTokens)),
    );
    close(costs.usd[0]!, 1_000 * 3.75e-6 + 1_000 * 0.3e-6);
    close(costs.usd[1]!, 2_000 * 3.75e-6 + 2_000 * 0.3e-6);
    close(costs.usd[2]!, 100 * 3.75e-6);
    close(costs.usd[3]!, 500 * 3.75e-6);
    close(costs.unassigned, 0);
  });

  it('a call of a model with no price adds nothing', () => {
    const items: CostedItem[] = [{ messageIndex: -1, tokens: 100 }];
    const costs = itemCosts(items, [call(0, 100, 0, 0)], [null]);
    assert.deepEqual(costs, { usd: [0], unassigned: 0, promptUsd: 0 });
  });

  it('a prompt with nothing sized in it is unassigned, never lost', () => {
    const costs = itemCosts([{ messageIndex: 3, tokens: 10 }], [call(1, 1_000, 0, 0)], [ratesOf(period, 1_000)]);
    close(costs.unassigned, 1_000 * 3e-6);
    assert.deepEqual(costs.usd, [0]);
  });

  it('property: the items’ costs plus what is unassigned are the prompts’ cost', () => {
    const arbitraryItems = fc.array(fc.record({ step: fc.nat({ max: 2 }), tokens: fc.nat({ max: 5_000 }), apiDropped: fc.nat({ max: 300 }) }), {
      minLength: 0,
      maxLength: 40,
    });
    const arbitraryCalls = fc.array(
      fc.record({
        from: fc.nat({ max: 60 }),
        input: fc.nat({ max: 3_000 }),
        write: fc.nat({ max: 20_000 }),
        read: fc.nat({ max: 300_000 }),
        hour: fc.nat({ max: 5_000 }),
        priced: fc.boolean(),
      }),
      { maxLength: 30 },
    );
    fc.assert(
      fc.property(arbitraryItems, arbitraryCalls, (drafts, drafted) => {
        let messageIndex = -1;
        const items: CostedItem[] = drafts.map((draft) => {
          messageIndex += draft.step;
          return { messageIndex, tokens: draft.tokens, apiDropped: draft.apiDropped };
        });
        const calls = drafted.map((draft) => call(draft.from, draft.input, draft.write, draft.read, Math.min(draft.hour, draft.write)));
        const rates = drafted.map((draft, k) =>
          draft.priced
            ? ratesOf(
                { ...period, longContext: { aboveTokens: 200_000, input: 6, cacheRead: 0.6, cacheWrite: 7.5 } },
                draft.input + draft.write + draft.read + k * 0,
              )
            : null,
        );
        const costs = itemCosts(items, calls, rates);
        const sum = costs.usd.reduce((total, usd) => total + usd, 0) + costs.unassigned;
        close(sum, costs.promptUsd, 1e-9 * Math.max(1, costs.promptUsd));
        for (const usd of costs.usd) assert.ok(usd >= -1e-12);
      }),
      { numRuns: 400, seed: 24 },
    );
  });
});
