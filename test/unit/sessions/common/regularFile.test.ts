// The one reader of files someone else controls: every hostile kind of path is refused at once,
// with its path and reason, never waited on or read without end.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { READ_CAPS, readRegularBytes, readRegularText, withoutBom } from '../../../../src/sessions/common/regularFile';
import { tempDir } from '../../../support/tempDir';

const folder = (): string => tempDir('cl-regular-');

/** The failure message, or 'read' when the read succeeded. */
async function refusal(path: string, cap = READ_CAPS.settings): Promise<string> {
  const read = await readRegularText(path, cap);
  return read.ok ? 'read' : read.error.message;
}

describe('readRegularText', () => {
  it('reads a regular file, and a symlink to one; a missing file is null', async () => {
    const dir = folder();
    writeFileSync(join(dir, 'a.json'), '\uFEFF{"a": 1}');
    symlinkSync(join(dir, 'a.json'), join(dir, 'link.json'));
    assert.deepEqual(await readRegularText(join(dir, 'a.json'), 100), { ok: true, value: '\uFEFF{"a": 1}' });
    assert.deepEqual(await readRegularText(join(dir, 'link.json'), 100), { ok: true, value: '\uFEFF{"a": 1}' });
    assert.deepEqual(await readRegularText(join(dir, 'gone.json'), 100), { ok: true, value: null });
  });

  it('refuses a named pipe, /dev/zero behind a symlink, a folder and a symlink loop, naming the path and why, at once', async () => {
    const dir = folder();
    execFileSync('mkfifo', [join(dir, 'fifo')]);
    symlinkSync('/dev/zero', join(dir, 'zero'));
    mkdirSync(join(dir, 'folder'));
    symlinkSync(join(dir, 'loop-b'), join(dir, 'loop-a'));
    symlinkSync(join(dir, 'loop-a'), join(dir, 'loop-b'));
    const started = Date.now();
    assert.equal(await refusal(join(dir, 'fifo')), `Not a regular file (a named pipe): ${join(dir, 'fifo')}`);
    assert.equal(await refusal(join(dir, 'zero')), `Not a regular file (a device): ${join(dir, 'zero')}`);
    assert.equal(await refusal(join(dir, 'folder')), `Not a regular file (a folder): ${join(dir, 'folder')}`);
    assert.equal(await refusal(join(dir, 'loop-a')), `Symlink loop: ${join(dir, 'loop-a')}`);
    assert.ok(Date.now() - started < 2000);
  });

  it('refuses a file over its cap without reading it (a 2 GB sparse file costs nothing)', async () => {
    const dir = folder();
    const big = join(dir, 'big.json');
    writeFileSync(big, '');
    truncateSync(big, 2 * 1024 * 1024 * 1024);
    assert.equal(await refusal(big), `Over ${READ_CAPS.settings} bytes (${2 * 1024 * 1024 * 1024}): not read: ${big}`);
  });

  it('reads exactly the files at or under the cap (property)', async () => {
    const dir = folder();
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 64 }), fc.integer({ min: 0, max: 64 }), async (bytes, cap) => {
        const path = join(dir, 'p.bin');
        writeFileSync(path, bytes);
        const read = await readRegularBytes(path, cap);
        if (bytes.length <= cap) assert.deepEqual(read, { ok: true, value: Buffer.from(bytes) });
        else assert.equal(read.ok ? 'read' : read.error.code, 'invalid-input');
      }),
      { numRuns: 100 },
    );
  });

  it('withoutBom drops only a leading byte order mark', () => {
    assert.equal(withoutBom('\uFEFF{}'), '{}');
    assert.equal(withoutBom('{"a":"\uFEFF"}'), '{"a":"\uFEFF"}');
  });
});
