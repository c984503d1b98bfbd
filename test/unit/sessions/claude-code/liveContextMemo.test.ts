// The resident reader keeps a session's live context while its file is unchanged (common/readMemo.ts):
// over every recorded and published transcript, what it gives back is what a fresh read gives,
// options and all, and a file the agent wrote on is read again.
import assert from 'node:assert/strict';
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, it } from 'node:test';
import { keepReads } from '../../../../src/sessions/common/readMemo';
import { readLiveContext } from '../../../../src/sessions/claude-code/liveContext';
import { engineContextOf } from '../../../../src/sessions/engineContext';
import type { LiveContext } from '../../../../src/sessions/types';
import { claudeTranscripts } from '../../../support/claudeFixtures';
import { tempDir } from './builders';

async function live(path: string, windowOverride?: number): Promise<LiveContext> {
  const read = await readLiveContext(path, windowOverride === undefined ? {} : { windowOverride });
  assert.ok(read.ok, read.ok ? '' : read.error.message);
  return read.value;
}

/** A fresh read, nothing kept before or after. */
async function fresh(path: string, windowOverride?: number): Promise<LiveContext> {
  keepReads(false);
  try {
    return await live(path, windowOverride);
  } finally {
    keepReads(true);
  }
}

describe('the live context kept by a resident process', () => {
  afterEach(() => keepReads(false));

  for (const transcript of claudeTranscripts()) {
    it(`${transcript.name}: the same answer as a fresh read, for any window, until the file changes`, async () => {
      keepReads();
      const first = await live(transcript.path);
      const again = await live(transcript.path);
      assert.equal(again, first, 'an unchanged file is not read again');
      assert.equal(engineContextOf(again), engineContextOf(first), 'nor its items counted again');
      assert.deepEqual(again, await fresh(transcript.path));
      const narrow = await live(transcript.path, 50_000);
      assert.notEqual(narrow, first);
      assert.deepEqual(narrow, await fresh(transcript.path, 50_000));
      assert.equal(narrow.fill.windowTokens, 50_000);

      // The agent writes on: the first half of the file, then the rest appended.
      const copy = join(tempDir(), 'session.jsonl');
      const text = readFileSync(transcript.path, 'utf8');
      const cut = text.lastIndexOf('\n', Math.floor(text.length / 2)) + 1;
      writeFileSync(copy, text.slice(0, cut));
      const early = await live(copy);
      appendFileSync(copy, text.slice(cut));
      const later = await live(copy);
      assert.notEqual(later, early);
      assert.deepEqual(later, await fresh(copy));
    });
  }
});
