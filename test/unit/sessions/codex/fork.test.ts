// Apply for Codex: a new rollout beside the source's CODEX_HOME, never the source itself, whose
// compacted record keeps the chosen items with our summary where the removed ones stood.
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { readCodexLiveContext, writeCodexFork } from '../../../../src/sessions/codex';
import { listRolloutFiles, sessionIdFromPath } from '../../../../src/sessions/codex/paths';

const FIXTURE = join(__dirname, '..', '..', '..', 'fixtures', 'codex', 'tally');
const NOW = new Date('2026-11-24T10:20:30Z');
const ID = '01a2b3c4-d5e6-7f00-8000-000000000001';

describe('writeCodexFork', () => {
  const home = mkdtempSync(join(tmpdir(), 'cl-codex-fork-unit-'));
  cpSync(FIXTURE, home, { recursive: true });
  after(() => rmSync(home, { recursive: true, force: true }));

  it('writes a new dated rollout whose compacted record holds the kept items and our summary', async () => {
    const [source] = await listRolloutFiles(home);
    assert.ok(source);
    const before = readFileSync(source, 'utf8');
    const live = await readCodexLiveContext(source);
    assert.ok(live.ok);
    // Drop the head -n 2 call and its output; keep the rest.
    const dropped = live.value.entries.slice(5, 7).flatMap((entry) => entry.uuids);
    const preserveRefs = live.value.entries.flatMap((entry) => entry.uuids).filter((ref) => !dropped.includes(ref));
    const tail = live.value.entries[8]?.uuids[0];
    assert.ok(tail);
    const fork = await writeCodexFork({
      sourcePath: source,
      summary: 'OUR SUMMARY',
      preserveRefs,
      replaceOutput: { [tail]: '[COMPACTED] tail output' },
      preTokens: 9824,
      postTokens: 4000,
      sourceTitle: 'tally',
      now: () => NOW,
      newId: () => ID,
    });
    assert.ok(fork.ok, fork.ok ? '' : fork.error.message);
    assert.equal(sessionIdFromPath(fork.value.path), ID);
    assert.ok(fork.value.path.includes(join('sessions', String(NOW.getFullYear()))));
    assert.equal(fork.value.resumeCommand, `codex resume ${ID}`);
    assert.equal(readFileSync(source, 'utf8'), before, 'the source is untouched');

    const records = readFileSync(fork.value.path, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    assert.deepEqual(
      records.map((record) => record.type),
      ['session_meta', 'turn_context', 'compacted', 'event_msg'],
    );
    assert.equal(records[0].payload.id, ID);
    assert.equal(records[0].payload.cwd, '/home/user/tally');
    const history = records[2].payload.replacement_history as { type: string; role?: string; content?: { text: string }[]; output?: string }[];
    const summaryAt = history.findIndex((item) => item.content?.[0]?.text.endsWith('OUR SUMMARY'));
    assert.ok(summaryAt > 0, 'the summary stands where the first removed item stood');
    assert.equal(history[summaryAt - 1]?.role, 'user', 'after the prompt that asked which account comes first');
    assert.ok(history.some((item) => item.output === '[COMPACTED] tail output'));

    const read = await readCodexLiveContext(fork.value.path);
    assert.ok(read.ok);
    assert.equal(read.value.session.forkOf?.title, 'tally');
    assert.equal(read.value.compactions[0]?.by, 'context-lens');
    assert.equal(read.value.compactions[0]?.summary, 'OUR SUMMARY');
    assert.equal(read.value.fill.usedTokens, 4000, 'our post-compaction count until Codex answers');
    assert.equal(read.value.fill.compactedSinceUsage, false);
    assert.deepEqual(read.value.diagnostics, []);
  });

  it('refuses to split a call from its output, and unknown items', async () => {
    const [source] = await listRolloutFiles(home);
    assert.ok(source);
    const live = await readCodexLiveContext(source);
    assert.ok(live.ok);
    const all = live.value.entries.flatMap((entry) => entry.uuids);
    const callRef = live.value.entries[1]?.uuids[0];
    const split = await writeCodexFork({
      sourcePath: source,
      summary: 's',
      preserveRefs: all.filter((ref) => ref !== callRef),
      preTokens: null,
      postTokens: null,
    });
    assert.equal(split.ok ? null : split.error.code, 'split-tool-pair');
    const unknown = await writeCodexFork({ sourcePath: source, summary: 's', preserveRefs: ['o1'], preTokens: null, postTokens: null });
    assert.equal(unknown.ok ? null : unknown.error.code, 'invalid-input');
  });
});
