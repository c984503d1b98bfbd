import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { O200K_TOKEN_SPLIT_REGEX } from 'gpt-tokenizer/encodingParams/constants';
import { countBounded, DEFAULT_CHARS_PER_TOKEN, DEFAULT_COUNT_LIMITS, MAX_ERROR_PER_CUT, type Bpe, type CountLimits } from '../../../../src/engine/tokens/bounded';
import { O200kTokenizer } from '../../../../src/engine/tokens/tokenizer';
import { worstCases } from './worstCases';

const AS_TEXT = { allowedSpecial: new Set<string>(), disallowedSpecial: new Set<string>() };
const exact = (text: string) => countTokens(text, AS_TEXT);
const bpe: Bpe = { count: exact, splitRegex: new RegExp(O200K_TOKEN_SPLIT_REGEX.source, O200K_TOKEN_SPLIT_REGEX.flags) };
const limits = (overrides: Partial<CountLimits>): CountLimits => ({ ...DEFAULT_COUNT_LIMITS, ...overrides });

/** Runs of one character class: each is a single o200k pre-token, or a few. */
const classes = ['abcdefghijklmnopqrstuvwxyz', 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'AAAAAAAAAAAAAAAB', '日本語東京都首相文字列連続', 'ひらがなカタカナ', '!@#$%^&*()[]{};:,.<>?/', '🙂👍🏽🚀🎉', ' \t', 'é̀ñü'];
const run = fc
  .record({ alphabet: fc.constantFrom(...classes), picks: fc.array(fc.nat(), { minLength: 64, maxLength: 1_500, size: 'max' }), prefix: fc.constantFrom('', ' ', 'x ', '1') })
  .map(({ alphabet, picks, prefix }) => {
    const units = [...alphabet];
    return prefix + picks.map((pick) => units[pick % units.length]).join('');
  });

describe('countBounded', () => {
  it('counts exactly whatever the text when no piece is over-long, however finely it is segmented', () => {
    const pieces = fc.oneof(fc.string({ unit: 'grapheme', maxLength: 40 }), fc.string({ unit: 'binary', maxLength: 40 }), fc.constantFrom('  \n\n', ' \r\n  x', 'const x = 1;', '日本語のテキスト', '🙂👍🏽', '\t\t}', "it's", '   '));
    fc.assert(
      fc.property(fc.array(pieces, { maxLength: 16 }), fc.integer({ min: 1, max: 64 }), (parts, segmentChars) => {
        const text = parts.join('');
        const counted = countBounded(text, bpe, limits({ pieceChars: 4_096, segmentChars }));
        assert.deepEqual(counted, { tokens: exact(text), cuts: 0, estimatedChars: 0 }, JSON.stringify(text));
      }),
      { numRuns: 400, seed: 5 },
    );
  });

  it(`moves the count by at most ${MAX_ERROR_PER_CUT} tokens per cut on long runs`, () => {
    fc.assert(
      fc.property(run, fc.constantFrom(16, 32, 64), (text, pieceChars) => {
        const counted = countBounded(text, bpe, limits({ pieceChars }));
        assert.equal(counted.estimatedChars, 0);
        const error = Math.abs(counted.tokens - exact(text));
        assert.ok(error <= counted.cuts * MAX_ERROR_PER_CUT, `${error} tokens off after ${counted.cuts} cuts: ${JSON.stringify(text)}`);
      }),
      { numRuns: 200, seed: 8 },
    );
  });

  it('never cuts an emoji in half', () => {
    const text = '🙂'.repeat(40);
    const chunks: string[] = [];
    countBounded(text, { ...bpe, count: (chunk) => (chunks.push(chunk), exact(chunk)) }, limits({ pieceChars: 7 }));
    assert.ok(chunks.every((chunk) => chunk.length % 2 === 0 && chunk.length > 0), chunks.join('|'));
    assert.equal(chunks.join(''), text);
  });

  it('estimates past the length cap at the rate measured on the counted part', () => {
    const text = 'hello world, '.repeat(1_000);
    const counted = countBounded(text, bpe, limits({ segmentChars: 2_000, maxExactChars: 2_000 }));
    assert.ok(counted.estimatedChars > 0 && counted.estimatedChars <= text.length - 2_000, String(counted.estimatedChars));
    assert.ok(Math.abs(counted.tokens - exact(text)) <= exact(text) * 0.01, `${counted.tokens} vs ${exact(text)}`);
  });

  it('estimates the rest once the time budget is spent, with a default rate when nothing was counted', () => {
    let clock = 0;
    const slowBpe: Bpe = { ...bpe, count: (text) => ((clock += 1_000), exact(text)) };
    const text = 'x'.repeat(300) + ' y'.repeat(20_000);
    const counted = countBounded(text, slowBpe, limits({ timeBudgetMs: 500 }), () => clock);
    assert.equal(counted.estimatedChars, text.length - 256);
    assert.equal(counted.tokens, exact('x'.repeat(256)) + Math.ceil((text.length - 256) / DEFAULT_CHARS_PER_TOKEN));
  });
});

describe('O200kTokenizer on hostile input (issue 12)', () => {
  const tokenizer = new O200kTokenizer();
  tokenizer.count('warm up: load the tables');

  for (const { name, text } of worstCases(256)) {
    it(`counts ${name} in well under 2 s, within the stated error`, () => {
      const started = performance.now();
      const counted = tokenizer.measure(text);
      const elapsed = performance.now() - started;
      assert.ok(elapsed < 2_000, `${elapsed.toFixed(0)} ms`);
      assert.equal(counted.estimatedChars, 0, 'counted, not estimated');
      // The exact count of 256 KB is out of reach (minutes): compare with the exact rate of a prefix.
      const sample = text.slice(0, 2_048);
      const expected = (exact(sample) * text.length) / sample.length;
      const tolerance = counted.cuts * MAX_ERROR_PER_CUT + expected * 0.01;
      assert.ok(Math.abs(counted.tokens - expected) <= tolerance, `${counted.tokens} tokens, expected ${expected.toFixed(0)} ± ${tolerance.toFixed(0)}`);
    });
  }

  it('gives the exact count of a run of one letter: cuts fall between its tokens', () => {
    assert.equal(tokenizer.count('a'.repeat(256 * 1024)), 32_768);
    assert.equal(tokenizer.count('A'.repeat(4_096)), exact('A'.repeat(4_096)));
  });
});
