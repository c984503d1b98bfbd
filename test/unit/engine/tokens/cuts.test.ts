import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { O200K_TOKEN_SPLIT_REGEX } from 'gpt-tokenizer/encodingParams/constants';
import { mayHoldPieceOver, safeCut } from '../../../../src/engine/tokens/cuts';

const AS_TEXT = { allowedSpecial: new Set<string>(), disallowedSpecial: new Set<string>() };
const pieces = (text: string) => [...text.matchAll(O200K_TOKEN_SPLIT_REGEX)].map(([piece]) => piece);

/** Characters that meet at piece edges: case, contractions, punctuation with newlines and slashes, non-ASCII classes. */
const units = ['a', 'Z', 'q', "'", 's', 'll', '1', '7', ' ', '  ', '\t', '\n', '\r\n', '/', '!', '{', '.', 'é', '\u0301', '日', 'の', '、', '\u00a0', '\u3000', '🙂', '٣', 'Ⅻ'];
/** A few runs, each drawn from two or three of the units, so that long pieces of every kind turn up. */
const run = fc
  .tuple(fc.array(fc.constantFrom(...units), { minLength: 1, maxLength: 3 }), fc.array(fc.nat(), { maxLength: 40, size: 'max' }))
  .map(([alphabet, picks]) => picks.map((pick) => alphabet[pick % alphabet.length]).join(''));
const text = fc.array(run, { minLength: 1, maxLength: 4 }).map((runs) => runs.join(''));

describe('mayHoldPieceOver', () => {
  it('never misses a piece longer than the limit', () => {
    fc.assert(
      fc.property(text, fc.integer({ min: 5, max: 24 }), (sample, limit) => {
        const longest = Math.max(0, ...pieces(sample).map((piece) => piece.length));
        if (longest > limit) assert.ok(mayHoldPieceOver(sample, limit), `${JSON.stringify(sample)} holds a piece of ${longest}`);
      }),
      { numRuns: 3_000, seed: 11 },
    );
  });

  it('passes ordinary prose and code, flags long runs', () => {
    const prose = 'The agent reads a file, runs the tests (all 42 pass) and writes the summary.\n'.repeat(50);
    const code = 'export function f(x: number): number {\n  return x * 2; // double\n}\n'.repeat(50);
    assert.equal(mayHoldPieceOver(prose, 256), false);
    assert.equal(mayHoldPieceOver(code, 256), false);
    for (const run of ['a'.repeat(300), '='.repeat(300), ' '.repeat(300), '!' + '\n'.repeat(300), '日'.repeat(300)]) assert.equal(mayHoldPieceOver(`x ${run} y`, 256), true, JSON.stringify(run.slice(0, 3)));
  });
});

describe('safeCut', () => {
  it('cuts where counting both sides gives the count of the whole', () => {
    fc.assert(
      fc.property(text, fc.nat(120), (sample, from) => {
        const cut = safeCut(sample, from, sample.length);
        if (cut === undefined) return;
        assert.ok(cut >= Math.min(from, sample.length));
        const whole = countTokens(sample, AS_TEXT);
        assert.equal(countTokens(sample.slice(0, cut), AS_TEXT) + countTokens(sample.slice(cut), AS_TEXT), whole, `${JSON.stringify(sample)} cut at ${cut}`);
      }),
      { numRuns: 2_000, seed: 12 },
    );
  });

  it('looks no further than asked', () => {
    assert.equal(safeCut('abc def', 0, 3), undefined);
    assert.equal(safeCut('abc def', 0, 4), 3);
    assert.equal(safeCut('abc', 5, 9), 3);
  });
});
