import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { scaledCount, scaleToTotal } from '../../../../src/engine/tokens/scale';

describe('scaleToTotal', () => {
  it('sums exactly to the provider total', () => {
    fc.assert(
      fc.property(fc.array(fc.nat(10_000), { minLength: 1, maxLength: 50 }), fc.nat(1_000_000), (raw, total) => {
        const { counts } = scaleToTotal(raw, total);
        if (raw.every((value) => value === 0)) return;
        assert.equal(
          counts.reduce((sum, value) => sum + value, 0),
          total,
        );
        counts.forEach((count, index) => assert.ok(Math.abs(count - ((raw[index] ?? 0) * total) / raw.reduce((a, b) => a + b, 0)) <= 1));
      }),
    );
  });

  it('leaves counts alone without a total', () => {
    assert.deepEqual(scaleToTotal([3, 4], undefined), { counts: [3, 4], scale: 1 });
  });

  it('scales new text consistently and never to zero', () => {
    assert.equal(scaledCount(10, 1.5), 15);
    assert.equal(scaledCount(1, 0.1), 1);
    assert.equal(scaledCount(0, 2), 0);
  });
});
