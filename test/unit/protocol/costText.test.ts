import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isPriced, pricesText, sessionCostText, unpricedText } from '../../../src/protocol/costText';
import type { CostView } from '../../../src/protocol/messages';

const view = (part: Partial<CostView>): CostView => ({
  sessionUsd: 4.123,
  calls: 1234,
  unpriced: [],
  prices: { source: 'genai-prices 0.1.8', taken: '2026-11-25' },
  problem: null,
  byResource: [],
  subagents: [],
  ...part,
});

describe('the session cost in words', () => {
  it("says the total, the calls with thousands separators, and the subagents' share", () => {
    assert.equal(sessionCostText(view({})), '$4.12 so far · 1,234 calls in the session');
    assert.equal(
      sessionCostText(
        view({
          calls: 1,
          subagents: [
            { title: 'a', calls: 3, tokens: 9_000, usd: 0.5, unpriced: [] },
            { title: 'b', calls: 1, tokens: 9_000, usd: 0.3, unpriced: [] },
          ],
        }),
      ),
      '$4.12 so far · 1 call in the session (2 subagents $0.80)',
    );
    assert.equal(pricesText(view({})), 'prices: genai-prices 0.1.8, taken 2026-11-25');
  });

  it('an unknown model: tokens only, and names it', () => {
    const unknown = view({ sessionUsd: 0, unpriced: ['claude-sonnet-5-5'] });
    assert.equal(isPriced(unknown), false);
    assert.equal(sessionCostText(unknown), '1,234 calls in the session');
    assert.equal(unpricedText(unknown), 'no price for claude-sonnet-5-5: tokens only for its calls (set contextLens.cost.prices)');
    assert.equal(unpricedText(view({})), null);
    assert.equal(isPriced(view({ sessionUsd: 0 })), true);
  });
});
