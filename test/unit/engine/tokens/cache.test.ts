import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CachedTokenizer, contentKey, LruCache } from '../../../../src/engine/tokens/cache';
import fc from 'fast-check';
import { Tiktoken } from 'js-tiktoken/lite';
import o200kBase from 'js-tiktoken/ranks/o200k_base';
import { O200kTokenizer, type Tokenizer } from '../../../../src/engine/tokens/tokenizer';

describe('LruCache', () => {
  it('evicts the least recently used entry', () => {
    const cache = new LruCache<string, number>(2);
    cache.set('a', 1);
    cache.set('b', 2);
    assert.equal(cache.get('a'), 1);
    cache.set('c', 3);
    assert.equal(cache.get('b'), undefined);
    assert.equal(cache.get('a'), 1);
    assert.equal(cache.size, 2);
  });
});

describe('CachedTokenizer', () => {
  it('counts each distinct content once', () => {
    let calls = 0;
    const inner: Tokenizer = { name: 'spy', count: (text) => (calls++, text.length) };
    const cached = new CachedTokenizer(inner, 10);
    const long = 'y'.repeat(1_000);
    assert.equal(cached.count(long), 1_000);
    assert.equal(cached.count('y'.repeat(1_000)), 1_000);
    assert.equal(calls, 1);
    assert.equal(cached.hits, 1);
  });

  it('keys long texts by hash and short ones by value', () => {
    assert.equal(contentKey('short'), 'short');
    assert.notEqual(contentKey('z'.repeat(300)), 'z'.repeat(300));
  });
});

describe('O200kTokenizer', () => {
  const tokenizer = new O200kTokenizer();

  it('counts o200k tokens and accepts special-token text', () => {
    assert.equal(tokenizer.count(''), 0);
    assert.equal(tokenizer.count('hello world'), 2);
    assert.ok(tokenizer.count('a <|endoftext|> b') > 3);
  });

  it('counts exactly what js-tiktoken counts, whatever the text', () => {
    const reference = new Tiktoken(o200kBase);
    const count = (text: string) => reference.encode(text, [], []).length;
    const pieces = fc.oneof(fc.string({ unit: 'grapheme', maxLength: 40 }), fc.string({ unit: 'binary', maxLength: 40 }), fc.constantFrom('<|endoftext|>', '<|endofprompt|>', '  \n\n', 'const x = 1;', '日本語のテキスト', '🙂👍🏽', '\t\t}'));
    fc.assert(
      fc.property(fc.array(pieces, { maxLength: 12 }), (parts) => {
        const text = parts.join('');
        assert.equal(tokenizer.count(text), count(text), JSON.stringify(text));
      }),
      { numRuns: 400, seed: 3 },
    );
  });
});
