// The events file's tail: another process appends to it; a named pipe at its path is refused, not waited on.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { readTail } from '../../../../src/host/events/readTail';
import { tempDir } from '../../../support/tempDir';

describe('readTail', () => {
  it('reads from the first whole line of the tail; a missing file is empty', async () => {
    const dir = tempDir('cl-tail-');
    writeFileSync(join(dir, 'events.jsonl'), 'first line\nsecond\nthird\n');
    assert.equal(await readTail(join(dir, 'events.jsonl'), 10), 'third\n');
    assert.equal(await readTail(join(dir, 'gone.jsonl')), '');
  });

  it('a named pipe at the path is refused at once', async () => {
    const path = join(tempDir('cl-tail-'), 'events.jsonl');
    execFileSync('mkfifo', [path]);
    await assert.rejects(readTail(path), /Not a regular file \(a named pipe\)/);
  });
});
