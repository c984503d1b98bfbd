// The pinned block goes back into every turn after an agent's own compaction (OpenCode's system
// prompt), so it must fit the window: the person's prompts in it stay within the prompt budget, the
// first ask included. Found on OpenCode 1.18.33 with a 10k window: a first prompt holding the rules
// and a pasted log was carried whole (~5k tokens), each turn after the compaction overflowed, and
// OpenCode compacted again and again (130 requests in 300 s).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { buildPinnedBlock, charEstimateTokenizer, type PinSource } from '../../../src/engine';
import { pastedLog, PINNED_LOOPS, PINNED_RULES, PINNED_WORDS } from '../../support/pinnedPhrasings';

const SETTINGS = { pinned: [], extractPinned: true, promptBudgetPercent: 5 };
const WINDOW = 10_000;
const BUDGET = WINDOW * 0.05;

/** The prompts the block carries word for word (its `<user-prompts>` lines). */
function wholePrompts(block: string): string[] {
  const start = block.indexOf('<user-prompts>');
  if (start < 0) return [];
  return block
    .slice(start, block.indexOf('</user-prompts>'))
    .split('\n')
    .filter((line) => line.startsWith('- '))
    .map((line) => line.slice(2));
}

describe('the pinned block within the prompt budget', () => {
  it('a first prompt of rules and a pasted log: its rules and open loops word for word, the log left out', () => {
    // `opencode run "…"` stores the prompt wrapped in double quotes.
    const first = `"${[...PINNED_RULES, ...PINNED_LOOPS].join(' ')}\nhere is the sync log:\n${pastedLog(300)}"`;
    const sources: PinSource[] = [
      { line: 1, kind: 'typed', text: first },
      { line: 2, kind: 'agent', text: 'Noted.' },
      { line: 3, kind: 'typed', text: 'carry on with the sync work' },
    ];
    for (const purpose of ['summariser', 'reinject'] as const) {
      const block = buildPinnedBlock(sources, SETTINGS, WINDOW, purpose).text;
      for (const words of PINNED_WORDS) assert.ok(block.includes(words), `${purpose}: lacks "${words}"`);
      assert.ok(!block.includes('flushed batch'), `${purpose}: the pasted log came along`);
      assert.deepEqual(wholePrompts(block), ['carry on with the sync work']);
      assert.ok(charEstimateTokenizer.count(block) < BUDGET, `${purpose}: ${charEstimateTokenizer.count(block)} tokens`);
    }
  });

  it('a first ask that fits is still carried whole', () => {
    const ask = PINNED_RULES.join(' ');
    const block = buildPinnedBlock([{ line: 1, kind: 'typed', text: ask }], SETTINGS, WINDOW, 'reinject').text;
    assert.deepEqual(wholePrompts(block), [ask]);
  });

  it('whatever the prompts, those carried whole add up to no more than the budget', () => {
    const prompt = fc.oneof(
      fc.constantFrom(...PINNED_WORDS),
      fc.nat(80).map((lines) => `here is the sync log:\n${pastedLog(lines)}`),
    );
    fc.assert(
      fc.property(fc.array(prompt, { minLength: 1, maxLength: 8 }), fc.integer({ min: 2_000, max: 40_000 }), (drawn, window) => {
        // Numbered, so no prompt is a part of another.
        const texts = drawn.map((text, at) => `${at}: ${text}`);
        const sources = texts.map((text, at): PinSource => ({ line: at + 1, kind: 'typed', text }));
        const block = buildPinnedBlock(sources, SETTINGS, window, 'reinject').text;
        // Within <user-prompts>: a prompt that is one rule is also listed among the constraints.
        const section = block.slice(block.indexOf('<user-prompts>'), block.indexOf('</user-prompts>') + 1);
        const carried = texts.filter((text) => section.includes(`\n- ${text}\n`));
        const spent = carried.reduce((sum, text) => sum + charEstimateTokenizer.count(text), 0);
        assert.ok(spent <= window * 0.05, `${spent} tokens of prompts in a ${window}-token window`);
      }),
      { numRuns: 40 },
    );
  });
});
