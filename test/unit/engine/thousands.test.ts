import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { thousands } from '../../../src/engine/thousands';

describe('thousands', () => {
  it('writes whole numbers as en-US does', () => {
    fc.assert(fc.property(fc.integer({ min: -1e12, max: 1e12 }), (value) => assert.equal(thousands(value), value.toLocaleString('en-US'))), { numRuns: 500, seed: 9 });
  });
});
