// A later permission lifts an earlier prohibition as "forget that rule" does (issue 41 item 9):
// the phrasing corpus's permissions (test/fixtures/phrasings/rules.json), each read as a person
// typed it in two messages, the prohibition first.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildPinnedSet, extractMarkedPins, extractPins } from '../../../../src/engine/policy/pinned';
import { PHRASINGS } from '../support/phrasings';

describe('a later permission lifts an earlier prohibition', () => {
  it('lifts exactly the prohibitions a person would read as lifted', () => {
    assert.ok(PHRASINGS.permissions.length >= 10);
    for (const { rule, permission, lifts } of PHRASINGS.permissions) {
      const set = buildPinnedSet(
        [],
        [
          { id: 1, pins: extractPins(rule) },
          { id: 2, pins: extractPins(permission) },
        ],
      );
      const revoked = (set.revoked ?? []).find((entry) => entry.text === rule);
      assert.equal(revoked !== undefined, lifts, `${rule} ← ${permission}`);
      if (revoked) assert.deepEqual([revoked.by, revoked.byId], [permission, 2]);
      assert.equal(
        set.constraints.some((entry) => entry.text === rule),
        !lifts,
        `${rule} stays a constraint: ${String(!lifts)}`,
      );
    }
  });

  it('keeps the permission as what the person asked for', () => {
    const [pair] = PHRASINGS.permissions;
    assert.ok(pair);
    const set = buildPinnedSet(
      [],
      [
        { id: 1, pins: extractPins(pair.rule) },
        { id: 2, pins: extractPins(pair.permission) },
      ],
    );
    assert.ok([...(set.requests ?? []), ...set.constraints].some((entry) => entry.text === pair.permission));
  });

  it('never lifts a prohibition said before it in the same message, nor one said after it', () => {
    const permission = 'Go ahead and edit the migrations.';
    const same = buildPinnedSet([], [{ id: 1, pins: extractPins(`Don't edit the migrations yet. ${permission}`) }]);
    assert.ok(same.constraints.some((entry) => entry.text === "Don't edit the migrations yet."));
    const after = buildPinnedSet(
      [],
      [
        { id: 1, pins: extractPins(permission) },
        { id: 2, pins: extractPins("Don't edit the migrations yet.") },
      ],
    );
    assert.ok(after.constraints.some((entry) => entry.text === "Don't edit the migrations yet."));
  });

  it('reads no permission in text the person did not type (an agent summary of their words)', () => {
    const set = buildPinnedSet(
      [],
      [
        { id: 1, pins: extractPins('Do not change any provider yet.') },
        { id: 2, pins: extractMarkedPins('You can now change any provider, the audit is done.') },
      ],
    );
    assert.ok(set.constraints.some((entry) => entry.text === 'Do not change any provider yet.'));
  });
});

describe('near-duplicate open loops are one loop', () => {
  it('the demo pair is one; loops about different things stay two', async () => {
    const { distinctLoops, sameLoop } = await import('../../../../src/engine/state/statement');
    assert.ok(sameLoop('Open question: take the retry budget from config/prod.yaml?', 'Still open: reading the retry budget from config/prod.yaml.'));
    assert.ok(!sameLoop('TODO: add retries to the refund path.', 'TODO: add retries to the charge path.'));
    assert.ok(!sameLoop('Still open: the retry budget.', 'Open question: the retry limit?'));
    const pinned = new Set(['Which retry budget should config/prod.yaml hold?', 'Still need to decide the retry budget of config/prod.yaml.']);
    // Pinned loops the person typed stay word for word; an agent's loop saying the same as one goes.
    assert.deepEqual(distinctLoops([...pinned, 'TODO: read the retry budget from config/prod.yaml.'], pinned), [...pinned]);
  });
});
