import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildPinnedSet, extractPins } from '../../../../src/engine/policy/pinned';
import { revocationOf, revokes } from '../../../../src/engine/policy/revoke';

describe('revoked instructions (issue 13)', () => {
  it('reads what a sentence revokes, and which constraints that names', () => {
    const revocation = revocationOf('Forget the Node 18 rule; Node 22 is fine now.');
    assert.deepEqual(revocation?.subject, ['node', '18']);
    assert.ok(revocation && revokes(revocation, 'Keep Node 18 compatibility: no top-level await and no built-in fetch.'));
    assert.ok(revocation && !revokes(revocation, 'Keep Node 180 compatibility.'), 'whole words only');
    assert.deepEqual(revocationOf('The vendor constraint no longer applies.')?.subject, ['vendor']);
    assert.equal(revocationOf('Never push to main directly.'), undefined);
    assert.equal(revocationOf('I forgot the rule.'), undefined);
  });

  it('a later revocation wins: the rule leaves the constraints and is listed as revoked; said again, it is live again', () => {
    const first = extractPins('Keep Node 18 compatibility: no top-level await. Never push to main directly.');
    const second = extractPins('Forget the Node 18 rule; Node 22 is fine now. Use fetch.');
    const set = buildPinnedSet(
      [],
      [
        { id: 1, pins: first },
        { id: 5, pins: second },
      ],
    );
    assert.deepEqual(
      set.constraints.map((entry) => entry.text),
      ['Never push to main directly.'],
    );
    assert.deepEqual(set.revoked, [
      { text: 'Keep Node 18 compatibility: no top-level await.', sourceId: 1, by: 'Forget the Node 18 rule; Node 22 is fine now.', byId: 5 },
    ]);
    const again = buildPinnedSet(
      [],
      [
        { id: 1, pins: first },
        { id: 5, pins: second },
        { id: 9, pins: extractPins('Keep Node 18 compatibility: no top-level await.') },
      ],
    );
    assert.deepEqual(
      again.constraints.map((entry) => entry.text),
      ['Never push to main directly.', 'Keep Node 18 compatibility: no top-level await.'],
    );
    assert.deepEqual(again.revoked, []);
  });

  it('a configured constraint is a setting: a chat message does not revoke it', () => {
    const set = buildPinnedSet(['Keep Node 18 compatibility.'], [{ id: 2, pins: extractPins('Forget the Node 18 rule.') }]);
    assert.deepEqual(
      set.constraints.map((entry) => entry.text),
      ['Keep Node 18 compatibility.'],
    );
  });

  it('keeps both sentences of a two-sentence constraint', () => {
    const pins = extractPins('Do not modify anything under vendor/. Keep the public function signatures of parse() and format() unchanged. Run the tests.');
    assert.deepEqual(pins.constraints, ['Do not modify anything under vendor/.', 'Keep the public function signatures of parse() and format() unchanged.']);
  });
});
