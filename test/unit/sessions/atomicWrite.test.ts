// Writes next to an agent's files: a failure anywhere (a full disk, a read-only folder) leaves no
// temp file behind and names the real cause.
import assert from 'node:assert/strict';
import { chmodSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import fsPromises from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, it } from 'node:test';
import fc from 'fast-check';
import { writeAtomically, writeNewAtomically } from '../../../src/sessions/atomicWrite';
import { tempDir } from '../../support/tempDir';

const folder = (): string => tempDir('cl-atomic-');
const errno = (code: string): NodeJS.ErrnoException => Object.assign(new Error(`${code}: injected`), { code });

/** Makes the next temp file's writes fail with `code` after `after` bytes landed (a disk filling up). */
function failWrites(code: string, after: number): void {
  const open = original.open;
  (fsPromises as { open: typeof fsPromises.open }).open = (async (...args: Parameters<typeof fsPromises.open>) => {
    const handle = await open(...args);
    const write = handle.writeFile.bind(handle);
    handle.writeFile = (async (data: string) => {
      await write(data.slice(0, after));
      throw errno(code);
    }) as typeof handle.writeFile;
    return handle;
  }) as typeof fsPromises.open;
}
const original = { open: fsPromises.open, link: fsPromises.link };

describe('writeAtomically', () => {
  afterEach(() => {
    (fsPromises as { open: typeof fsPromises.open }).open = original.open;
  });

  it('writes the file private (0600) whatever the umask, and replaces it whole', async () => {
    const dir = folder();
    const previous = process.umask(0);
    try {
      assert.deepEqual(await writeAtomically(join(dir, 'a.json'), '{"a":1}\n'), { ok: true, value: undefined });
    } finally {
      process.umask(previous);
    }
    assert.equal(statSync(join(dir, 'a.json')).mode & 0o777, 0o600);
    assert.equal(readFileSync(join(dir, 'a.json'), 'utf8'), '{"a":1}\n');
  });

  it('a full disk mid-write leaves the old file and no temp file, and says "No space left" (property over where it fails)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ minLength: 1, maxLength: 200 }), fc.nat(200), fc.constantFrom('ENOSPC', 'EDQUOT', 'EIO'), async (text, after, code) => {
        const dir = folder();
        const path = join(dir, 'a.json');
        await writeAtomically(path, 'old');
        failWrites(code, after);
        const written = await writeAtomically(path, text);
        (fsPromises as { open: typeof fsPromises.open }).open = original.open;
        assert.equal(written.ok, false);
        if (code === 'ENOSPC') assert.equal(written.ok ? '' : written.error.message, `No space left on the disk while writing ${path}`);
        assert.deepEqual(readdirSync(dir), ['a.json']);
        assert.equal(readFileSync(path, 'utf8'), 'old');
      }),
      { numRuns: 30 },
    );
  });

  it('a read-only folder is named as such, not as a missing file', async () => {
    const dir = folder();
    const path = join(dir, 'a.json');
    (fsPromises as { open: typeof fsPromises.open }).open = (async () => {
      throw errno('EROFS');
    }) as typeof fsPromises.open;
    const written = await writeAtomically(path, 'x');
    assert.equal(written.ok ? '' : written.error.message, `${dir} is on a read-only file system (while writing ${path})`);
  });

  it('a folder it may not write to says "Permission denied writing" (chmod 0500; root is not blocked by it)', async (context) => {
    if (process.getuid?.() === 0) return context.skip('root ignores folder modes; the injected EROFS test covers the wording');
    const dir = folder();
    chmodSync(dir, 0o500);
    const written = await writeAtomically(join(dir, 'a.json'), 'x');
    chmodSync(dir, 0o700);
    assert.equal(written.ok ? '' : written.error.message, `Permission denied writing ${join(dir, 'a.json')}`);
    assert.deepEqual(readdirSync(dir), []);
  });
});

// Forks are new files: whatever id one was given, a file already at that name is never replaced.
describe('writeNewAtomically', () => {
  const folders: string[] = [];
  const fresh = (): string => {
    const dir = folder();
    folders.push(dir);
    return dir;
  };
  afterEach(() => {
    (fsPromises as { link: typeof fsPromises.link }).link = original.link;
    for (const dir of folders.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('writes a new name whole and private', async () => {
    const dir = fresh();
    assert.deepEqual(await writeNewAtomically(join(dir, 'f.jsonl'), 'new\n'), { ok: true, value: undefined });
    assert.equal(readFileSync(join(dir, 'f.jsonl'), 'utf8'), 'new\n');
    assert.equal(statSync(join(dir, 'f.jsonl')).mode & 0o777, 0o600);
    assert.deepEqual(readdirSync(dir), ['f.jsonl']);
  });

  it('an existing name fails with "exists", its bytes untouched, no temp file left', async () => {
    const dir = fresh();
    const path = join(dir, 'source.jsonl');
    writeFileSync(path, "the agent's own session\n");
    const written = await writeNewAtomically(path, 'a fork\n');
    assert.equal(written.ok ? '' : written.error.code, 'exists');
    assert.match(written.ok ? '' : written.error.message, /already exists; it was left as it is/);
    assert.equal(readFileSync(path, 'utf8'), "the agent's own session\n");
    assert.deepEqual(readdirSync(dir), ['source.jsonl']);
  });

  it('20 writers racing for one name: exactly one wins, the file is whole', async () => {
    const dir = fresh();
    const path = join(dir, 'f.jsonl');
    const results = await Promise.all(Array.from({ length: 20 }, (_, index) => writeNewAtomically(path, `writer ${index}\n`.repeat(1000))));
    assert.equal(results.filter((result) => result.ok).length, 1);
    assert.ok(results.every((result) => result.ok || result.error.code === 'exists'));
    assert.match(readFileSync(path, 'utf8'), /^(writer \d+\n)\1{999}$/);
    assert.deepEqual(readdirSync(dir), ['f.jsonl']);
  });

  it('without hard links, a copy cut short by a full disk leaves neither the copy nor the temp file', async () => {
    const dir = fresh();
    (fsPromises as { link: typeof fsPromises.link }).link = (async () => {
      throw errno('EPERM');
    }) as typeof fsPromises.link;
    const copy = fsPromises.copyFile;
    (fsPromises as { copyFile: typeof fsPromises.copyFile }).copyFile = (async (from: string, to: string, mode?: number) => {
      await copy(from, to, mode);
      throw errno('ENOSPC');
    }) as typeof fsPromises.copyFile;
    try {
      const written = await writeNewAtomically(join(dir, 'a.jsonl'), 'a\n');
      assert.equal(written.ok ? '' : written.error.message, `No space left on the disk while writing ${join(dir, 'a.jsonl')}`);
    } finally {
      (fsPromises as { copyFile: typeof fsPromises.copyFile }).copyFile = copy;
    }
    assert.deepEqual(readdirSync(dir), []);
  });

  it('without hard links (EPERM, as on FAT) it publishes by an exclusive copy, which still never replaces', async () => {
    const dir = fresh();
    (fsPromises as { link: typeof fsPromises.link }).link = (async () => {
      throw errno('EPERM');
    }) as typeof fsPromises.link;
    assert.equal((await writeNewAtomically(join(dir, 'a.jsonl'), 'a\n')).ok, true);
    assert.equal(readFileSync(join(dir, 'a.jsonl'), 'utf8'), 'a\n');
    const again = await writeNewAtomically(join(dir, 'a.jsonl'), 'b\n');
    assert.equal(again.ok ? '' : again.error.code, 'exists');
    assert.equal(readFileSync(join(dir, 'a.jsonl'), 'utf8'), 'a\n');
    assert.deepEqual(readdirSync(dir), ['a.jsonl']);
  });
});
