import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { classifySentence, hasRuleKeyword, tagBudget, TAGGED_SENTENCES_PER_RUN } from '../../../../src/engine/policy/classify';
import { buildPinnedSet, extractPins, sentencesOf } from '../../../../src/engine/policy/pinned';
import { PHRASINGS } from '../support/phrasings';

/** The roles a person's prompt holds: one per sentence. */
const rolesOf = (text: string) => sentencesOf(text).map((sentence) => classifySentence(sentence));
const carried = (text: string): boolean => rolesOf(text).some((role) => role !== 'none' && role !== 'revocation');

describe('sentence classification', () => {
  it(`reads every phrasing collected from real sessions as a rule, decision, request or open loop (${PHRASINGS.collected.length})`, () => {
    assert.ok(PHRASINGS.collected.length >= 40);
    assert.deepEqual(
      PHRASINGS.collected.filter((entry) => !carried(entry.text)).map((entry) => entry.text),
      [],
    );
    for (const entry of PHRASINGS.collected) assert.ok(entry.source.includes('(') && entry.fixture !== '', `${entry.text}: source and license`);
  });

  it('reads the held-out phrasings (written apart, never tuned on) at 90 % or better', () => {
    const missed = PHRASINGS.heldout.filter((text) => !carried(text));
    // Measured at 28 of 30 when they were written; the misses are kept here, not fixed by a pattern.
    assert.ok(PHRASINGS.heldout.length - missed.length >= 0.9 * PHRASINGS.heldout.length, `missed: ${missed.join(' | ')}`);
  });

  it('reads chit-chat, pasted logs, tool output and harness lines as none', () => {
    assert.deepEqual(
      PHRASINGS.nonRules.filter((text) => classifySentence(text) !== 'none'),
      [],
    );
  });

  it('reads the phrasings of issue 23 as a person would', () => {
    assert.equal(classifySentence('Stick to two-space indentation in everything you write'), 'rule');
    assert.equal(classifySentence('Treat lib/ as read-only for this whole task'), 'rule');
    assert.equal(classifySentence('Also keep Node 18 compatibility'), 'rule');
    assert.equal(classifySentence('Remind me to ask about Windows path handling before we ship'), 'open-loop');
    assert.equal(classifySentence('we still have to decide on the cache'), 'open-loop');
    assert.equal(classifySentence('The vendor/ folder is off-limits.'), 'rule');
    assert.equal(classifySentence("it's better to test first"), 'rule');
    assert.equal(classifySentence("we'd rather keep PRs small"), 'rule');
    assert.equal(classifySentence('I want the errors in plain English'), 'request');
    assert.equal(classifySentence("Let's go with SQLite."), 'decision');
    assert.equal(classifySentence('Use pnpm'), 'request');
    assert.equal(classifySentence('The build passes now.'), 'none');
  });

  it('reads a revocation as one, and it wins over the rule it names', () => {
    for (const { rule, revocation } of PHRASINGS.revocations) {
      assert.equal(classifySentence(revocation), 'revocation', revocation);
      const set = buildPinnedSet(
        [],
        [
          { id: 1, pins: extractPins(rule) },
          { id: 2, pins: extractPins(revocation) },
        ],
      );
      assert.deepEqual(
        set.revoked?.map((entry) => [entry.text, entry.by]),
        [[rule, revocation]],
      );
      assert.ok(!set.constraints.some((entry) => entry.text === rule));
    }
    assert.notEqual(classifySentence('Forget it.'), 'revocation', 'a revocation naming nothing revokes nothing');
  });

  it('keeps the keyword list as a highlight only: most kept rules carry none of its words', () => {
    const rules = PHRASINGS.collected.filter((entry) => entry.role === 'rule').map((entry) => entry.text);
    assert.ok(rules.some((text) => !hasRuleKeyword(text)));
    assert.ok(PHRASINGS.heldout.filter((text) => carried(text) && !hasRuleKeyword(text)).length > PHRASINGS.heldout.length / 2);
  });

  it("spends a run's tagger allowance one sentence at a time; past it a sentence is read by its frame alone", () => {
    const budget = tagBudget();
    assert.equal(budget.left, TAGGED_SENTENCES_PER_RUN);
    assert.equal(classifySentence('Use pnpm', budget), 'request');
    assert.equal(budget.left, TAGGED_SENTENCES_PER_RUN - 1);
    assert.equal(classifySentence('You should use pnpm', budget), 'rule', 'decided by its frame, no tagger asked');
    assert.equal(budget.left, TAGGED_SENTENCES_PER_RUN - 1);
    const spent = { left: 0 };
    assert.equal(classifySentence('Use pnpm', spent), 'none');
    assert.equal(classifySentence('You should use pnpm', spent), 'rule');
    assert.equal(classifySentence('I want pnpm', spent), 'request');
  });
});
