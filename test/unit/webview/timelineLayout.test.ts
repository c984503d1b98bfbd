import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { barsPath, timelineBars } from '../../../webview/logic/timelineLayout';

const point = (usedTokens: number) => ({ at: null, usedTokens, event: null });

describe('timeline layout', () => {
  it('scales bars to the window, or to the peak when a call overshot it', () => {
    assert.deepEqual(timelineBars([point(50), point(100)], 200).map((bar) => bar.height), [0.25, 0.5]);
    assert.deepEqual(timelineBars([point(50), point(400)], 200).map((bar) => bar.height), [0.125, 1]);
    assert.deepEqual(timelineBars([], null), []);
  });

  it('draws all bars as one path', () => {
    assert.equal(barsPath(timelineBars([point(100), point(200)], 200), 100, 10), 'M0 10h40v-5h-40zM50 10h40v-10h-40z');
    assert.equal(barsPath([], 100, 10), '');
  });
});
