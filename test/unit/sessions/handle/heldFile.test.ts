import assert from 'node:assert/strict';
import { appendFileSync, renameSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { heldPaths, holdFile } from '../../../../src/sessions/handle/heldFile';
import { openRegular } from '../../../../src/sessions/result';
import { readRange } from '../../../../src/sessions/common/lines';
import { tempDir } from '../../../support/tempDir';

/** What a reader sees of the whole file: opened (the held one's view while held), read, closed. */
async function whole(path: string): Promise<string> {
  const handle = await openRegular(path);
  try {
    return (await readRange(handle, 0, (await handle.stat()).size)).toString();
  } finally {
    await handle.close();
  }
}

describe('a held session file', () => {
  it('gives every reader the same descriptor until the last release closes it', async () => {
    const path = join(tempDir('cl-held-'), 's.jsonl');
    writeFileSync(path, 'one\n');
    const first = holdFile(path);
    const second = holdFile(path);
    const a = await openRegular(path);
    const b = await openRegular(path);
    assert.equal(a.fd, b.fd);
    await a.close();
    assert.equal(await whole(path), 'one\n', "a reader's close leaves the held descriptor open");
    await first.release();
    assert.deepEqual(heldPaths(), [path]);
    await second.release();
    assert.deepEqual(heldPaths(), []);
    const c = await openRegular(path);
    assert.notEqual(c.fd, -1);
    await c.close();
  });

  it('reads what was appended, and what a truncation, an in-place rewrite or a replacement left, never kept bytes that went', async () => {
    const dir = tempDir('cl-held-');
    const path = join(dir, 's.jsonl');
    writeFileSync(path, 'aaaa\nbbbb\n');
    const hold = holdFile(path);
    try {
      assert.equal(await whole(path), 'aaaa\nbbbb\n');
      appendFileSync(path, 'cccc\n');
      assert.equal(await whole(path), 'aaaa\nbbbb\ncccc\n');
      // The same length rewritten in place (the agent rewrote its file): the seal tells.
      writeFileSync(path, 'xxxx\nyyyy\nzzzz\n');
      assert.equal(await whole(path), 'xxxx\nyyyy\nzzzz\n');
      // Rewritten longer, the old end's bytes elsewhere.
      writeFileSync(path, 'x\nyyyy\nzzzz\nwwww\n');
      assert.equal(await whole(path), 'x\nyyyy\nzzzz\nwwww\n');
      truncateSync(path, 2);
      assert.equal(await whole(path), 'x\n');
      const other = join(dir, 'other.jsonl');
      writeFileSync(other, 'replaced\n');
      renameSync(other, path);
      assert.equal(await whole(path), 'replaced\n');
    } finally {
      await hold.release();
    }
  });

  it('a reader of a missing held file gets the error it got before (no such file)', async () => {
    const path = join(tempDir('cl-held-'), 'gone.jsonl');
    const hold = holdFile(path);
    try {
      await assert.rejects(openRegular(path), { code: 'ENOENT' });
    } finally {
      await hold.release();
    }
  });
});
