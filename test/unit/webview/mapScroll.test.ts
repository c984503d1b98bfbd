// Issue 41 item 14: sorting the region map by tokens or cost left its top rows (the biggest) off-screen.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { scrollAfterSort } from '../../../webview/logic/mapScroll';

describe('the region map after a sort', () => {
  it('starts a biggest-first order at its top, context order at its end, and leaves a same order where it was', () => {
    assert.equal(scrollAfterSort('order', 'tokens', null), 0);
    assert.equal(scrollAfterSort('tokens', 'cost', 480), 0);
    assert.equal(scrollAfterSort('cost', 'order', 0), null);
    assert.equal(scrollAfterSort('tokens', 'tokens', 240), 240);
  });
});
