import assert from 'node:assert/strict';
import { appendFileSync, readFileSync, renameSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, it } from 'node:test';
import { keepReads, ReadMemo } from '../../../../src/sessions/common/readMemo';
import { tempDir } from '../claude-code/builders';

/** The memo's answer for `path` as it is now. */
async function lookup(memo: ReadMemo<string>, path: string): Promise<string | undefined> {
  const handle = await open(path, 'r');
  try {
    return await memo.get(path, handle, await handle.stat());
  } finally {
    await handle.close();
  }
}

async function remember(memo: ReadMemo<string>, path: string, value: string): Promise<void> {
  const handle = await open(path, 'r');
  try {
    await memo.set(path, handle, await handle.stat(), value);
  } finally {
    await handle.close();
  }
}

describe('ReadMemo', () => {
  afterEach(() => keepReads(false));

  it('keeps nothing unless the process asked for it', async () => {
    const path = join(tempDir(), 'a.jsonl');
    writeFileSync(path, '{"a":1}\n');
    const memo = new ReadMemo<string>(2);
    await remember(memo, path, 'built');
    assert.equal(await lookup(memo, path), undefined);
  });

  it('gives a build back only while the file is exactly as it was', async () => {
    keepReads();
    const dir = tempDir();
    const path = join(dir, 'a.jsonl');
    const memo = new ReadMemo<string>(2);
    writeFileSync(path, '{"a":1}\n{"b":2}\n');
    await remember(memo, path, 'built');
    assert.equal(await lookup(memo, path), 'built');
    // Appended to: the agent wrote on.
    appendFileSync(path, '{"c":3}\n');
    assert.equal(await lookup(memo, path), undefined);
    await remember(memo, path, 'grown');
    // Rewritten in place to the same size, the modification time put back: the last bytes differ.
    const { atime, mtime } = statSync(path);
    writeFileSync(path, readFileSync(path, 'utf8').replace('"c":3', '"c":4'));
    utimesSync(path, atime, mtime);
    assert.equal(await lookup(memo, path), undefined);
    await remember(memo, path, 'rewritten');
    // Replaced by another file of the same content (a copy renamed over it): a new inode.
    const copy = join(dir, 'copy.jsonl');
    writeFileSync(copy, readFileSync(path));
    renameSync(copy, path);
    assert.equal(await lookup(memo, path), undefined);
  });

  it('holds at most its number of files, the least recently used going first', async () => {
    keepReads();
    const dir = tempDir();
    const memo = new ReadMemo<string>(2);
    const paths = ['a', 'b', 'c'].map((name) => join(dir, `${name}.jsonl`));
    for (const path of paths) writeFileSync(path, `${path}\n`);
    await remember(memo, paths[0] as string, 'a');
    await remember(memo, paths[1] as string, 'b');
    assert.equal(await lookup(memo, paths[0] as string), 'a');
    await remember(memo, paths[2] as string, 'c');
    assert.equal(await lookup(memo, paths[1] as string), undefined, 'b was used least recently');
    assert.equal(await lookup(memo, paths[0] as string), 'a');
    assert.equal(await lookup(memo, paths[2] as string), 'c');
  });
});
