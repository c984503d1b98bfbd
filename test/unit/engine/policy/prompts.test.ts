import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { promptBudgetTokens, promptsWithinBudget, promptsWithinCap } from '../../../../src/engine/policy/prompts';

describe('the prompt budget', () => {
  it('keeps the newest prompts that fit, skipping one too large for what is left', () => {
    const prompts = [
      { id: 1, tokens: 30 },
      { id: 2, tokens: 50 },
      { id: 3, tokens: 90 },
      { id: 4, tokens: 40 },
    ];
    assert.deepEqual([...promptsWithinBudget(prompts, 120)].sort(), [1, 2, 4]);
    assert.deepEqual([...promptsWithinBudget(prompts, 100)].sort(), [2, 4]);
  });

  it('keeps the always-kept prompts outside the budget', () => {
    const prompts = [
      { id: 1, tokens: 500 },
      { id: 2, tokens: 20 },
      { id: 3, tokens: 900 },
    ];
    assert.deepEqual([...promptsWithinBudget(prompts, 30, new Set([1, 3]))].sort(), [1, 2, 3]);
  });

  it('is a share of the window', () => {
    assert.equal(promptBudgetTokens(200_000, 5), 10_000);
    assert.equal(promptBudgetTokens(200_000, 0), 0);
  });

  it('never spends more than the budget, and leaves out only prompts that did not fit', () => {
    const prompt = fc.record({ tokens: fc.nat(500) });
    fc.assert(
      fc.property(fc.array(prompt, { maxLength: 30 }), fc.nat(2_000), (sizes, budget) => {
        const prompts = sizes.map((size, id) => ({ id, tokens: size.tokens }));
        const kept = promptsWithinBudget(prompts, budget);
        const spent = prompts.filter((entry) => kept.has(entry.id)).reduce((sum, entry) => sum + entry.tokens, 0);
        assert.ok(spent <= budget);
        // Newest first: a prompt left out was larger than what was left when its turn came.
        let left = budget;
        for (const entry of [...prompts].reverse()) {
          if (kept.has(entry.id)) left -= entry.tokens;
          else assert.ok(entry.tokens > left);
        }
      }),
    );
  });
});

describe('the prompt cap of a block put back into every turn', () => {
  it('keeps the first ask whole only when it fits, and counts it', () => {
    const prompts = [
      { id: 1, tokens: 60 },
      { id: 2, tokens: 30 },
      { id: 3, tokens: 30 },
    ];
    assert.deepEqual([...promptsWithinCap(prompts, 100, new Set([1]))].sort(), [1, 3]);
    // A pasted first prompt larger than the budget is left out; the newer ones still fit.
    const pasted = [{ id: 1, tokens: 5_000 }, ...prompts.slice(1)];
    assert.deepEqual([...promptsWithinCap(pasted, 100, new Set([1]))].sort(), [2, 3]);
  });

  it('never passes the budget, offers the first ones first, and leaves out only prompts that did not fit', () => {
    fc.assert(
      fc.property(fc.array(fc.nat(3_000), { maxLength: 30 }), fc.nat(2_000), fc.nat(3), (sizes, budget, firsts) => {
        const prompts = sizes.map((tokens, id) => ({ id, tokens }));
        const first = new Set(prompts.slice(0, firsts).map((entry) => entry.id));
        const kept = promptsWithinCap(prompts, budget, first);
        const spent = prompts.filter((entry) => kept.has(entry.id)).reduce((sum, entry) => sum + entry.tokens, 0);
        assert.ok(spent <= budget, `${spent} > ${budget}`);
        let left = budget;
        const order = [...prompts.filter((entry) => first.has(entry.id)), ...prompts.filter((entry) => !first.has(entry.id)).reverse()];
        for (const entry of order) {
          if (kept.has(entry.id)) left -= entry.tokens;
          else assert.ok(entry.tokens > left);
        }
      }),
    );
  });
});
