import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { switchedSession } from '../../../webview/logic/sessionSwitch';

describe('switchedSession', () => {
  it('is a switch from one shown session to another or to none, never the first state', () => {
    // After Apply the panel follows the fork: the original's open item and selection go.
    assert.equal(switchedSession('original', 'fork'), true);
    assert.equal(switchedSession('original', null), true);
    assert.equal(switchedSession(null, 'fork'), true);
    // The same session again (a 10/s stream of states), or the first state after a reload: nothing goes.
    assert.equal(switchedSession('original', 'original'), false);
    assert.equal(switchedSession(undefined, 'original'), false);
  });
});
