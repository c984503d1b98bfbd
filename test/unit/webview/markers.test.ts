import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { segmentByMarkers } from '../../../webview/logic/markers';

describe('segmentByMarkers', () => {
  it('splits text into plain and marked runs', () => {
    const text = 'Hmm, wait — actually the root cause';
    const runs = segmentByMarkers(text, [
      { phrase: 'actually', start: 12, end: 20 },
      { phrase: 'wait', start: 5, end: 9 },
    ]);
    assert.deepEqual(runs, [
      { text: 'Hmm, ', marker: null },
      { text: 'wait', marker: 'wait' },
      { text: ' — ', marker: null },
      { text: 'actually', marker: 'actually' },
      { text: ' the root cause', marker: null },
    ]);
    assert.equal(runs.map((run) => run.text).join(''), text);
  });

  it('tolerates overlapping, empty and out-of-range offsets', () => {
    const runs = segmentByMarkers('abcdef', [
      { phrase: 'x', start: 1, end: 4 },
      { phrase: 'y', start: 2, end: 5 },
      { phrase: 'z', start: 3, end: 3 },
      { phrase: 'far', start: 90, end: 99 },
    ]);
    assert.deepEqual(runs, [
      { text: 'a', marker: null },
      { text: 'bcd', marker: 'x' },
      { text: 'e', marker: 'y' },
      { text: 'f', marker: null },
    ]);
  });

  it('keeps hostile markup as a plain run', () => {
    assert.deepEqual(segmentByMarkers('<script>x</script>', []), [{ text: '<script>x</script>', marker: null }]);
    assert.deepEqual(segmentByMarkers('', []), [{ text: '', marker: null }]);
  });
});
