import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { moveSelection, scrollToReveal, virtualWindow } from '../../../webview/logic/virtualWindow';

describe('virtualWindow', () => {
  it('renders only the visible rows plus overscan out of 10,000', () => {
    const window = virtualWindow(10_000, 22, 22 * 5_000, 440, 8);
    assert.deepEqual(window, { start: 4_992, end: 5_029, totalHeight: 220_000 });
  });

  it('clamps at both ends and handles an empty list', () => {
    assert.deepEqual(virtualWindow(10, 22, 0, 440, 8), { start: 0, end: 10, totalHeight: 220 });
    assert.deepEqual(virtualWindow(100, 22, 99_999, 440, 8), { start: 100, end: 100, totalHeight: 2_200 });
    assert.deepEqual(virtualWindow(0, 22, 0, 440, 8), { start: 0, end: 0, totalHeight: 0 });
  });
});

describe('scrollToReveal', () => {
  it('moves as little as possible to show a row', () => {
    assert.equal(scrollToReveal(5, 20, 0, 200), 0);
    assert.equal(scrollToReveal(12, 20, 0, 200), 60);
    assert.equal(scrollToReveal(2, 20, 100, 200), 40);
  });
});

describe('moveSelection', () => {
  it('moves by one, by a page and to the ends, clamped', () => {
    assert.equal(moveSelection(-1, 10, 'ArrowDown', 5), 0);
    assert.equal(moveSelection(-1, 10, 'ArrowUp', 5), 9);
    assert.equal(moveSelection(9, 10, 'ArrowDown', 5), 9);
    assert.equal(moveSelection(2, 10, 'PageDown', 5), 7);
    assert.equal(moveSelection(2, 10, 'PageUp', 5), 0);
    assert.equal(moveSelection(4, 10, 'End', 5), 9);
    assert.equal(moveSelection(4, 10, 'Home', 5), 0);
    assert.equal(moveSelection(4, 10, 'x', 5), null);
    assert.equal(moveSelection(0, 0, 'ArrowDown', 5), null);
  });
});
