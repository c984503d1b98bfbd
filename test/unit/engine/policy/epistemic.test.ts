import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { describeMarkers, distinctPhrases, findEpistemicMarkers, markerThreshold } from '../../../../src/engine/policy/epistemic';

describe('epistemic markers', () => {
  it('finds markers with offsets, longest phrase first', () => {
    const text = 'But wait, that is wrong. Actually, let me reconsider: perhaps the index is stale.';
    const hits = findEpistemicMarkers(text);
    assert.deepEqual(distinctPhrases(hits), ['but wait', 'actually', 'let me reconsider', 'perhaps']);
    for (const hit of hits) assert.equal(text.slice(hit.start, hit.end).toLowerCase().replace(/\s+/g, ' '), hit.phrase);
  });

  it('does not count routine "check" or words containing markers', () => {
    assert.deepEqual(findEpistemicMarkers('Let me check the awaiting ahead hmmm'), []);
    assert.deepEqual(distinctPhrases(findEpistemicMarkers('double check this')), ['double-check']);
  });

  it('uses lower thresholds for complex tasks', () => {
    assert.equal(markerThreshold('simple'), 3);
    assert.equal(markerThreshold('epic'), 1);
    assert.equal(markerThreshold('medium', 2), 2);
    assert.equal(describeMarkers(['wait', 'actually', 'reconsider']), '3 second thoughts: wait · actually · reconsider');
  });
});
