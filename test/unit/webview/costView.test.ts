import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Region, ResourceCost } from '../../../src/protocol/messages';
import { costCell, groupCountText, sortGroups, sortSubagents, sortVisible, subagentCostText, withPlanCosts } from '../../../webview/logic/costView';

const region = (id: number, tokens: number, usd?: number): Region => ({
  id,
  turn: 0,
  kind: 'tool_result',
  label: `#${id}`,
  tokens,
  tokensAfter: tokens,
  fate: 'preserved',
  reason: '',
  tier: null,
  protection: null,
  pinned: false,
  markerCount: 0,
  ...(usd === undefined ? {} : { usd }),
});

describe("the map's cost views", () => {
  const regions = [region(0, 100, 0.5), region(1, 300, 0.1), region(2, 200), region(3, 300, 0.5)];

  it('sorts the filtered rows by tokens or cost, biggest first, ties and unpriced rows in context order', () => {
    assert.deepEqual(sortVisible(regions, [0, 1, 2, 3], 'order'), [0, 1, 2, 3]);
    assert.deepEqual(sortVisible(regions, [0, 1, 2, 3], 'tokens'), [1, 3, 2, 0]);
    assert.deepEqual(sortVisible(regions, [0, 1, 2, 3], 'cost'), [0, 3, 1, 2]);
    // Only the rows the filter let through.
    assert.deepEqual(sortVisible(regions, [1, 2], 'cost'), [1, 2]);
  });

  it('sorts file groups by cost (the default) or tokens now', () => {
    const groups: ResourceCost[] = [
      { resource: 'a.ts', file: true, count: 1, tokens: 900, usd: 0.1 },
      { resource: 'b.ts', file: true, count: 4, tokens: 400, usd: 0.4 },
    ];
    assert.deepEqual(
      sortGroups(groups, 'cost').map((group) => group.resource),
      ['b.ts', 'a.ts'],
    );
    assert.deepEqual(
      sortGroups(groups, 'order').map((group) => group.resource),
      ['b.ts', 'a.ts'],
    );
    assert.deepEqual(
      sortGroups(groups, 'tokens').map((group) => group.resource),
      ['a.ts', 'b.ts'],
    );
  });

  it('says a cost the one way, a dash without a price, and how many tool calls touched a file', () => {
    assert.equal(costCell({ usd: 1234.5 }), '$1,235');
    assert.equal(costCell({ usd: 0.0031 }), '$0.0031');
    assert.equal(costCell({}), '—');
    assert.equal(groupCountText({ count: 1 }), '1 tool call');
    assert.equal(groupCountText({ count: 1234 }), '1,234 tool calls');
  });

  it("gives a preview's rows the live plan's costs by id, and leaves them alone without any", () => {
    const preview = [region(0, 100), region(2, 200), region(9, 5)];
    assert.deepEqual(
      withPlanCosts(preview, regions).map((row) => row.usd),
      [0.5, undefined, undefined],
    );
    assert.equal(withPlanCosts(preview, [region(0, 100)]), preview);
    assert.equal(withPlanCosts(preview, undefined), preview);
  });

  it('lists subagents costliest first and says when one has no price', () => {
    const agent = (title: string, calls: number, usd: number, unpriced: string[] = []) => ({ title, calls, tokens: 1_000, usd, unpriced });
    assert.deepEqual(
      sortSubagents([agent('a', 3, 0.1), agent('b', 9, 0.4), agent('c', 5, 0.1), agent('d', 1, 0, ['claude-sonnet-5-5'])]).map((entry) => entry.title),
      ['b', 'c', 'a', 'd'],
    );
    assert.equal(subagentCostText(agent('d', 1, 0, ['claude-sonnet-5-5'])), 'no price for claude-sonnet-5-5');
    assert.equal(subagentCostText(agent('e', 2, 0.0123, ['claude-sonnet-5-5'])), '$0.01');
  });
});
