import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { splitClauses } from '../../../../src/engine/policy/sentences';

describe('splitClauses', () => {
  it('ends a sentence before a lower-case word too: people type rules in lower case', () => {
    assert.deepEqual(splitClauses('never touch prod. always run the tests first.'), ['never touch prod.', 'always run the tests first.']);
    assert.deepEqual(splitClauses("don't edit package.json. use pnpm instead"), ["don't edit package.json.", 'use pnpm instead']);
    assert.deepEqual(splitClauses('is it done? yes, ship it! then tag it'), ['is it done?', 'yes, ship it!', 'then tag it']);
    assert.deepEqual(splitClauses('keep the API stable. (the old one too)'), ['keep the API stable.', '(the old one too)']);
  });

  it('goes on after an abbreviation, an initial or an ellipsis followed by lower case', () => {
    for (const line of [
      'use the helpers, e.g. the ones in lib',
      'the shared ones, i.e. lib and utils',
      'logs, traces etc. are noise here',
      'as Smith et al. found in the benchmark',
      'run at 3 a.m. every night',
      'J. doe wrote the parser',
      'wait... then retry',
      '1. install the hooks',
    ])
      assert.deepEqual(splitClauses(line), [line], line);
  });

  it('ends before a capital, a quote or a bracket, as it always did', () => {
    assert.deepEqual(splitClauses('a.b is fine. Next one!'), ['a.b is fine.', 'Next one!']);
    assert.deepEqual(splitClauses('Use e.g. The helpers.'), ['Use e.g.', 'The helpers.']);
    assert.deepEqual(splitClauses('Done. "Quoted" next. `code` last. [x] box'), ['Done.', '"Quoted" next.', '`code` last.', '[x] box']);
    assert.deepEqual(splitClauses('v1.2.3 is out.Next'), ['v1.2.3 is out.Next'], 'no space, no end');
  });

  it('keeps every character but the spaces between sentences, in order, and never yields an empty one', () => {
    const piece = fc.oneof(
      fc.constantFrom('never', 'prod', 'e.g', 'i.e', 'etc', 'J', 'package.json', 'OK', 'ok', '"x"', '(y)', '...', '?', '!', '.', ' ', '  ', '\t'),
      fc.string({ maxLength: 6 }),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 30 }), (pieces) => {
        const line = pieces.join(' ');
        const sentences = splitClauses(line);
        assert.ok(sentences.every((sentence) => sentence.length > 0 && sentence === sentence.trim()));
        assert.equal(sentences.join('').replace(/\s+/g, ''), line.replace(/\s+/g, ''));
      }),
      { numRuns: 500 },
    );
  });
});
