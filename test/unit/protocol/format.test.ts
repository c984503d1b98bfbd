import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatTokens, percentOf } from '../../../src/protocol/format';

describe('formatTokens', () => {
  it('abbreviates like the status bar sketch', () => {
    assert.equal(formatTokens(950), '950');
    assert.equal(formatTokens(124_310), '124k');
    assert.equal(formatTokens(200_000), '200k');
    assert.equal(formatTokens(1_000_000), '1M');
    assert.equal(formatTokens(1_250_000), '1.25M');
  });
});

describe('percentOf', () => {
  it('is 0 for an empty window instead of dividing by zero', () => {
    assert.equal(percentOf(10, 0), 0);
    assert.equal(percentOf(50, 200), 25);
  });
});
