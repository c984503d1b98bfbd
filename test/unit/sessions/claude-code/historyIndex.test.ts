// A new process continues the compaction history an earlier one read, from the index on disk: only
// what was appended since is read. Anything that does not match the file is ignored.
import assert from 'node:assert/strict';
import { appendFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { historyIndexDir, loadStoredHistory } from '../../../../src/sessions/claude-code/historyIndex';
import { readCompactionHistory } from '../../../../src/sessions/claude-code/scan';
import { basicSession, tempDir } from './builders';

async function history(path: string, as: string) {
  const handle = await open(path, 'r');
  try {
    return await readCompactionHistory(handle, as, false, await handle.stat());
  } finally {
    await handle.close();
  }
}

describe('compaction history index', () => {
  it('is written 0600 in a 0700 folder and lets another process resume where the first stopped', async () => {
    const cache = tempDir('cl-cache-');
    process.env.CONTEXT_LENS_CACHE = cache;
    try {
      const builder = basicSession();
      builder.user('before');
      builder.compact('first summary', { postTokens: 500 });
      builder.user('after');
      const path = builder.write(tempDir());
      const first = await history(path, path);
      assert.equal(first.compactions.length, 1);
      const dir = historyIndexDir();
      assert.equal(statSync(dir).mode & 0o777, 0o700);
      const [entry] = readdirSync(dir);
      assert.ok(entry !== undefined);
      assert.equal(statSync(join(dir, entry)).mode & 0o777, 0o600);
      const stored = await loadStoredHistory(statSync(path), false);
      assert.equal(stored?.readTo, statSync(path).size);

      // Another name for the same file is what a new process looks like: nothing in memory.
      const second = await history(path, `${path}#second`);
      assert.deepEqual(second.compactions, first.compactions);
      assert.equal(second.lastLine, first.lastLine);

      builder.compact('second summary', { postTokens: 400 });
      appendFileSync(path, `${builder.lines.slice(-2).join('\n')}\n`);
      const third = await history(path, `${path}#third`);
      assert.deepEqual(
        third.compactions.map((event) => event.summary?.split('\n').at(-1)),
        ['first summary', 'second summary'],
      );
      assert.equal(third.lastLine, first.lastLine + 2);

      // Rewritten in place: the bytes before where reading stopped changed, so it starts over.
      writeFileSync(path, `${builder.lines.slice(0, 3).join('\n')}\n`);
      const fourth = await history(path, `${path}#fourth`);
      assert.equal(fourth.compactions.length, 0);
    } finally {
      delete process.env.CONTEXT_LENS_CACHE;
    }
  });
});
