import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { plural, shortPath, thousands } from '../../../src/base/format';
import { lowerBound } from '../../../src/base/search';

describe('thousands', () => {
  it('writes whole numbers as en-US does', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1e12, max: 1e12 }), (value) => assert.equal(thousands(value), value.toLocaleString('en-US'))),
      { numRuns: 500, seed: 9 },
    );
  });
});

describe('plural', () => {
  it('groups the count and picks the word', () => {
    assert.equal(plural(1, 'call'), '1 call');
    assert.equal(plural(0, 'call'), '0 calls');
    assert.equal(plural(12_345, 'entry', 'entries'), '12,345 entries');
  });
});

describe('shortPath', () => {
  it('names a file under the workspace relative to it, and leaves others alone', () => {
    assert.equal(shortPath('/w/p/src/a.ts', '/w/p'), 'src/a.ts');
    assert.equal(shortPath('/w/p/src/a.ts', '/w/p//'), 'src/a.ts');
    assert.equal(shortPath('/w/pq/a.ts', '/w/p'), '/w/pq/a.ts');
    assert.equal(shortPath('/w/p/a.ts', undefined), '/w/p/a.ts');
  });
});

describe('lowerBound', () => {
  it('finds the first element not before the key, as a linear scan does', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 50 })), fc.integer({ min: -5, max: 55 }), (values, key) => {
        const sorted = [...values].sort((a, b) => a - b);
        const linear = sorted.findIndex((value) => value >= key);
        assert.equal(
          lowerBound(sorted, (value) => value < key),
          linear === -1 ? sorted.length : linear,
        );
      }),
      { numRuns: 300, seed: 3 },
    );
  });
});
