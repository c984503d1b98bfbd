import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { shellWord } from '../../../src/base/shell';

describe('shellWord', () => {
  it('is read back by sh as the one word it was, whatever it holds', () => {
    const words = fc.sample(fc.string({ unit: 'grapheme', maxLength: 20 }), 40).filter((word) => !word.includes('\0'));
    words.push("it's", '$HOME', '"x" `y` \\z', 'a b\tc\nd', '*?[]');
    const script = words.map((word) => `printf '%s\\0' ${shellWord(word)}`).join('\n');
    const read = spawnSync('/bin/sh', ['-c', script], { encoding: 'utf8' });
    assert.equal(read.status, 0, read.stderr);
    assert.deepEqual(read.stdout.split('\0').slice(0, -1), words);
  });
});
