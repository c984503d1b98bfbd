import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildPinnedSet, countOpenLoops, extractMarkedPins, extractPins, sentencesOf } from '../../../../src/engine/policy/pinned';

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

  it('files a lower-case rule apart from the open loop or question typed before it in the same sentence', () => {
    assert.deepEqual(extractPins('todo: fix the parser. never touch prod.'), { constraints: ['never touch prod.'], openLoops: ['todo: fix the parser.'] });
    assert.deepEqual(extractPins('should we retry? never retry payments.'), { constraints: ['never retry payments.'], openLoops: ['should we retry?'] });
    assert.deepEqual(extractMarkedPins('TODO: fix the parser. never touch prod.'), {
      constraints: ['never touch prod.'],
      openLoops: ['TODO: fix the parser.'],
    });
  });

  it('keeps clauses of one kind, or a reason with its rule, together as typed', () => {
    assert.deepEqual(extractPins('never touch prod. always run the tests first.').constraints, ['never touch prod. always run the tests first.']);
    assert.deepEqual(extractPins("errors are handled in metrics already. don't overcomplicate").constraints, [
      "errors are handled in metrics already. don't overcomplicate",
    ]);
  });

  it('puts configured entries first and deduplicates', () => {
    const set = buildPinnedSet(['Never push to main.'], [{ id: 3, pins: { constraints: ['Never push to main.', "Don't log secrets."], openLoops: [] } }]);
    assert.deepEqual(set.constraints, [{ text: 'Never push to main.' }, { text: "Don't log secrets.", sourceId: 3 }]);
  });
});
