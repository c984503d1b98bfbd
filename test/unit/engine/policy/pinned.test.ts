import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildPinnedSet, countOpenLoops, extractPins, sentencesOf } from '../../../../src/engine/policy/pinned';

describe('pinned extraction', () => {
  it('extracts constraint and open-loop sentences verbatim', () => {
    const text =
      'Please speed up the parser. Never modify config/prod.yaml. You must keep tests green.\n- TODO: benchmark 1M tokens\nOpen question: do we need Windows paths?';
    assert.deepEqual(extractPins(text), {
      constraints: ['Never modify config/prod.yaml.', 'You must keep tests green.'],
      openLoops: ['TODO: benchmark 1M tokens', 'Open question: do we need Windows paths?'],
      requests: ['Please speed up the parser.'],
    });
    assert.equal(countOpenLoops(text), 2);
  });

  it('splits on lines and sentence ends only', () => {
    assert.deepEqual(sentencesOf('a.b is fine. Next one!\n\n1. item'), ['a.b is fine.', 'Next one!', 'item']);
  });

  it('puts configured entries first and deduplicates', () => {
    const set = buildPinnedSet(['Never push to main.'], [{ id: 3, pins: { constraints: ['Never push to main.', "Don't log secrets."], openLoops: [] } }]);
    assert.deepEqual(set.constraints, [{ text: 'Never push to main.' }, { text: "Don't log secrets.", sourceId: 3 }]);
  });
});
