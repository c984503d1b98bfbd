import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { focusMatcher, focusTerms } from '../../../../src/engine/policy/focus';

describe('focus matching', () => {
  it('keeps the meaningful words of the focus text', () => {
    assert.deepEqual(focusTerms('focus on the payment integration'), ['payment', 'integration']);
  });

  it('matches items holding every term, in any order and case', () => {
    const matches = focusMatcher('payment integration');
    assert.ok(matches?.('The Integration with the payment provider'));
    assert.ok(!matches?.('payment only'));
    assert.equal(focusMatcher('focus on the'), undefined);
  });
});
