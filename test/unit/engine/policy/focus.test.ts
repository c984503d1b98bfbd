import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { plan } from '../../../../src/engine/plan';
import { focusMatcher, focusTerms } from '../../../../src/engine/policy/focus';
import { charEstimateTokenizer as tokenizer } from '../../../../src/engine/tokens/tokenizer';
import { assistant, big, build, user } from '../support/build';

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

  it('matches by word stems and by the phrase itself (issue 13)', () => {
    const matches = focusMatcher('keep the retry decision');
    assert.ok(matches?.('The decision on retries: three at most, because the gateway times out.'));
    assert.ok(!matches?.('Retries are capped at three.'), 'both words of a two-word focus');
    assert.ok(focusMatcher('retry logic')?.('we rewrote the Retry  Logic'), 'the phrase, case and spacing aside');
    // Three or more words: at least half of them, in any form.
    assert.ok(focusMatcher('payment gateway timeouts')?.('the payment times out at the gateway'));
    assert.ok(!focusMatcher('payment gateway timeouts')?.('a timeout'));
    assert.ok(focusMatcher('src/retry.ts')?.('edited src/retry.ts'), 'paths are matched whole');
  });

  it('the plan lists the items the focus kept verbatim', () => {
    const context = build(
      [user('go'), assistant(`The decision on retries: three at most. ${big('why', 2_000)}`), assistant(big('other', 4_000)), user('next'), assistant('ok')],
      { windowTokens: 4_000 },
    );
    const planned = plan(context, { trigger: 'manual', focus: 'keep the retry decision', preserve: { recentTurns: 1, recentPercent: 0 } }, { tokenizer });
    const kept = context.items.find((item) => item.text.startsWith('The decision on retries'));
    assert.deepEqual(planned.focusKept, [kept?.id]);
    assert.equal(planned.items.find((item) => item.id === kept?.id)?.fate, 'preserved');
  });
});
