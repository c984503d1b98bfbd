// Golden tests on transcripts recorded with the real Claude Code CLI (test/fixtures/claude-code).
// Expected values are computed here independently, by a plain full parse of every line.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { readFill } from '../../../../src/sessions/claude-code/fill';
import { readLiveContext } from '../../../../src/sessions/claude-code/liveContext';

import { claudeTranscripts } from '../../../support/claudeFixtures';

interface Expected {
  used: number;
  boundaries: number;
  lastBoundaryPost: number | null;
}

interface NaiveRecord {
  type?: string;
  subtype?: string;
  isSidechain?: boolean;
  message?: { model?: string; usage?: { input_tokens: number; cache_creation_input_tokens: number; cache_read_input_tokens: number; output_tokens: number } };
  compactMetadata?: { postTokens?: number };
}

/** The fill rule applied by brute force: parse everything, keep the last of each thing. */
function naive(path: string): Expected {
  const records = readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as NaiveRecord);
  let used = 0;
  let output = 0;
  let followed = false;
  let boundaries = 0;
  let lastBoundaryPost: number | null = null;
  let sinceBoundary = false;
  for (const record of records) {
    if (record.isSidechain) continue;
    const usage = record.type === 'assistant' && record.message?.model !== '<synthetic>' ? record.message?.usage : undefined;
    // All zeros: a call that never reached the API (older versions record failures that way).
    const reading = usage && usage.input_tokens + usage.cache_creation_input_tokens + usage.cache_read_input_tokens + usage.output_tokens > 0;
    if (usage && reading) {
      used = usage.input_tokens + usage.cache_creation_input_tokens + usage.cache_read_input_tokens;
      output = usage.output_tokens;
      followed = false;
      sinceBoundary = false;
    } else if (record.type === 'user') followed = true;
    if (record.type === 'system' && record.subtype === 'compact_boundary') {
      boundaries++;
      lastBoundaryPost = record.compactMetadata?.postTokens ?? null;
      sinceBoundary = true;
    }
  }
  return { used: sinceBoundary ? (lastBoundaryPost ?? 0) : used + (followed ? output : 0), boundaries, lastBoundaryPost };
}

describe('recorded Claude Code fixtures', () => {
  const files = claudeTranscripts();
  it('are present', () => assert.ok(files.length > 0, 'no recorded fixtures under test/fixtures/claude-code'));
  for (const { name, origin, path } of files) {
    it(`${name}: exact fill, compactions, a clean live context`, async () => {
      const expected = naive(path);
      const fill = await readFill(path);
      assert.ok(fill.ok);
      assert.equal(fill.value.fill.usedTokens, expected.used);
      assert.deepEqual(fill.value.diagnostics, []);
      const live = await readLiveContext(path);
      assert.ok(live.ok);
      const context = live.value;
      // Notes on how a real file was read (a bridged parent, a file starting mid-conversation) are not problems.
      assert.deepEqual(
        context.diagnostics.filter((diagnostic) => diagnostic.severity !== 'info'),
        [],
      );
      assert.equal(context.compactions.length, expected.boundaries);
      assert.equal(context.fill.usedTokens, expected.used);
      if (origin === 'recorded') {
        assert.equal(context.source, 'request', 'the recorded request body lines up with the chain');
        assert.ok(context.system && context.system.length > 0 && context.tools && context.tools.length > 0);
      }
      assert.equal(context.messages.length, context.entries.length);
      if (expected.used > 0) assert.ok(context.messages.length >= 2);
      // The newest response's calls may still be running (a file read while subagents work).
      const lastAssistant = context.entries.findLast((entry) => entry.kind === 'assistant');
      const uses = context.entries.filter((entry) => entry !== lastAssistant).flatMap((entry) => entry.toolUseIds);
      const results = new Set(context.entries.flatMap((entry) => entry.toolResultIds));
      assert.ok(
        uses.every((id) => results.has(id)),
        'every finished tool call has its result',
      );
      if (expected.boundaries > 0) assert.equal(context.entries[0]?.kind, 'compact-summary');
      // Every recorded compaction ran `/compact focus on the retry logic`, but long-compacted's and compact-audit's plain `/compact`.
      for (const compaction of origin === 'recorded' ? context.compactions : []) {
        assert.equal(compaction.focus, name === 'long-compacted' || name === 'compact-audit' ? null : 'focus on the retry logic');
        assert.ok(compaction.summary && compaction.summary.length > 0);
      }
    });
  }
});
