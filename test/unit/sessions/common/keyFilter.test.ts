import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { KeyFilter } from '../../../../src/sessions/common/keyFilter';

describe('KeyFilter', () => {
  it('never says no to a key it was given, also after a round trip through base64', () => {
    fc.assert(
      fc.property(fc.array(fc.string(), { maxLength: 200 }), (keys) => {
        const filter = KeyFilter.empty();
        for (const key of keys) filter.add(key);
        const copy = KeyFilter.fromBase64(filter.toBase64());
        assert.ok(copy !== null);
        for (const key of keys) assert.ok(filter.mayHave(key) && copy.mayHave(key), key);
      }),
    );
  });

  it('says no to nearly every key it was not given, and refuses text that is not one of its own', () => {
    const filter = KeyFilter.empty();
    for (let index = 0; index < 4000; index++) filter.add(`written-${index}`);
    const maybes = Array.from({ length: 4000 }, (_, index) => `never-${index}`).filter((key) => filter.mayHave(key)).length;
    assert.ok(maybes < 200, `${maybes} of 4000 unknown keys answered maybe`);
    assert.equal(KeyFilter.fromBase64('c2hvcnQ='), null);
    assert.equal(KeyFilter.fromBase64(undefined), null);
  });
});
