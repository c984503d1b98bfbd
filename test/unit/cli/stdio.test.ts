// Output goes to the descriptor directly, and to Node's stream from the first write that cannot.
import assert from 'node:assert/strict';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, it } from 'node:test';
import { descriptorOutput } from '../../../src/cli/stdio';
import { tempDir } from '../../support/tempDir';

describe('descriptorOutput', () => {
  it('writes every byte to the descriptor and never builds the stream', () => {
    const path = join(tempDir('cl-stdio-'), 'out');
    const fd = openSync(path, 'w');
    let built = 0;
    const output = descriptorOutput(fd, () => (built++, new PassThrough()));
    output.write('héllo ');
    output.write('x'.repeat(200_000));
    closeSync(fd);
    assert.equal(readFileSync(path, 'utf8'), `héllo ${'x'.repeat(200_000)}`);
    assert.equal(built, 0);
  });

  it('hands the rest and everything after it to the stream when the descriptor fails', () => {
    const path = join(tempDir('cl-stdio-'), 'out');
    const fd = openSync(path, 'w');
    closeSync(fd);
    const stream = new PassThrough();
    let built = 0;
    const output = descriptorOutput(fd, () => (built++, stream));
    output.write('first ');
    output.write('second');
    assert.equal(built, 1);
    assert.equal(String(stream.read()), 'first second');
  });
});
