// Issue 41 item 14: the diff editor opened mid-file on unchanged text; it opens at the first change.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { firstChangedLine } from '../../../../src/host/compaction/firstChange';

describe('the first changed line of a diff', () => {
  it('is the first line the sides differ on, the same index on both', () => {
    const kept = ['=== #1 system', 'You are…', '=== #2 user', 'Fix the retry bug.'];
    assert.equal(firstChangedLine([...kept, '=== #3 tool_result Read', 'big file'].join('\n'), [...kept, '=== summary of #3–#40', '- …'].join('\n')), 4);
    assert.equal(firstChangedLine('a\nb', 'x\nb'), 0);
  });

  it('is where one side goes on past the other, and 0 for equal texts', () => {
    assert.equal(firstChangedLine('a\nb\nc', 'a\nb'), 1);
    assert.equal(firstChangedLine('a\nb', 'a\nb'), 0);
    assert.equal(firstChangedLine('', ''), 0);
  });
});
