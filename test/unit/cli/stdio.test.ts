// Output goes to the descriptor directly, and to Node's stream from the first write that cannot.
import assert from 'node:assert/strict';
import { closeSync, constants, openSync, readFileSync } from 'node:fs';
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

  it('a reader that went away (EPIPE) drops the rest quietly, from the descriptor or from the stream (issue 40)', async () => {
    const { execFileSync } = await import('node:child_process');
    const dir = tempDir('cl-stdio-');
    // A pipe whose reader is gone: a FIFO whose only reader closed its end; every write gets EPIPE.
    const fifo = join(dir, 'p');
    execFileSync('mkfifo', [fifo]);
    const reader = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
    const fd = openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK);
    closeSync(reader);
    let built = 0;
    const output = descriptorOutput(fd, () => (built++, new PassThrough()));
    assert.equal(output.write('nobody reads this'), false);
    assert.equal(output.write('nor this'), false);
    assert.equal(built, 0, 'no stream is built for a reader that is gone');
    closeSync(fd);

    const stream = new PassThrough();
    const closedFd = openSync(join(dir, 'f'), 'w');
    closeSync(closedFd);
    const viaStream = descriptorOutput(closedFd, () => stream);
    viaStream.write('to the stream');
    stream.emit('error', Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }));
    assert.equal(viaStream.write('after'), false);
  });
});
