// The Codex adapter on a rollout the real Codex CLI 0.169.0 wrote (test/fixtures/codex/tally):
// listing, the exact fill, the compaction, and the live context the engine gets.
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { contextFromMessages } from '../../../../src/engine';
import { codexAdapter } from '../../../../src/sessions/codex/adapter';
import { listCodexSessions, readCodexFill, readCodexLiveContext } from '../../../../src/sessions/codex';
import { listRolloutFiles } from '../../../../src/sessions/codex/paths';
import type { LiveContext } from '../../../../src/sessions/types';

const HOME = join(__dirname, '..', '..', '..', 'fixtures', 'codex', 'tally');
const SUMMARY =
  'Progress: fixed src/sum.js (loop started at 1), `node --test test/` passes. Current task: count the entries of data/ledger.csv; it was read in full and its first 400 lines again. Next: count the lines.';

async function rollout(): Promise<string> {
  const [path] = await listRolloutFiles(HOME);
  assert.ok(path);
  return path;
}

/** The last token_count's last_token_usage, read straight from the file. */
function lastTokenCount(path: string): { input_tokens: number; output_tokens: number } {
  const counts = readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.includes('"type":"token_count"'))
    .map((line) => JSON.parse(line).payload.info.last_token_usage);
  return counts.at(-1);
}

/** Every tool_use is answered by a tool_result with its id in the next message. */
function assertPaired(live: LiveContext): void {
  live.messages.forEach((message, index) => {
    for (const block of message.content.filter((candidate) => candidate.type === 'tool_use')) {
      const next = live.messages[index + 1];
      assert.ok(
        next?.content.some((candidate) => candidate.type === 'tool_result' && candidate.tool_use_id === block.id),
        `call ${String(block.id)} has its output`,
      );
    }
  });
}

describe('Codex adapter on the recorded tally rollout', () => {
  const temp = mkdtempSync(join(tmpdir(), 'cl-codex-fixture-'));
  after(() => rmSync(temp, { recursive: true, force: true }));

  it('lists the session for its workspace, titled by the first prompt', async () => {
    const listed = await listCodexSessions({ codexHomes: [HOME], workspacePath: '/home/user/tally' });
    assert.ok(listed.ok);
    assert.equal(listed.value.sessions.length, 1);
    const [session] = listed.value.sessions;
    assert.equal(session?.agent, 'codex');
    assert.equal(session?.id, '01a20a7c-91ba-7042-b356-3b768f64638e');
    assert.equal(session?.title, 'The test in test/sum.test.js fails. Find the bug in src/sum.js and fix it.');
    assert.equal(session?.cwd, '/home/user/tally');
    assert.equal(session?.model, 'gpt-5.5');
    const other = await listCodexSessions({ codexHomes: [HOME], workspacePath: '/home/user/elsewhere' });
    assert.ok(other.ok);
    assert.deepEqual(other.value.sessions, []);
  });

  it('reads the exact fill from the last token_count, tail first', async () => {
    const path = await rollout();
    const read = await readCodexFill(path);
    assert.ok(read.ok);
    const last = lastTokenCount(path);
    assert.equal(read.value.fill.usedTokens, last.input_tokens + last.output_tokens);
    assert.equal(read.value.fill.usedTokens, 9824);
    assert.equal(read.value.fill.source, 'usage');
    assert.equal(read.value.fill.windowTokens, 258_400);
    assert.equal(read.value.fill.model, 'gpt-5.5');
    assert.equal(read.value.fill.agentAutoCompactTokens, 20_000, 'model_auto_compact_token_limit from config.toml');
    assert.equal(read.value.fill.pendingTokens, 0);
    assert.ok(read.value.bytesScanned < read.value.size / 4, `read ${read.value.bytesScanned} of ${read.value.size} bytes`);
    assert.deepEqual(read.value.diagnostics, []);
  });

  it("lists the compaction with its summary and Codex's counts, and rebuilds the live context after it", async () => {
    const path = await rollout();
    const live = await readCodexLiveContext(path);
    assert.ok(live.ok);
    const fill = await readCodexFill(path);
    assert.ok(fill.ok);
    assert.deepEqual(live.value.fill, fill.value.fill);
    assert.equal(live.value.compactions.length, 1);
    const [compaction] = live.value.compactions;
    assert.equal(compaction?.by, 'agent');
    assert.equal(compaction?.summary, SUMMARY);
    assert.equal(compaction?.postTokens, 6938);
    assert.equal(compaction?.preTokens, 22045);
    assert.deepEqual(live.value.diagnostics, []);
    assertPaired(live.value);
    // The replacement history opens the live context: kept prompts, harness text and the summary.
    const first = live.value.entries[0];
    assert.deepEqual(first?.recordKinds, ['user', 'meta', 'meta', 'user', 'compact-summary']);
    assert.ok(first?.uuids.every((ref) => ref.startsWith(`o${compaction?.offset}.r`)));
    assert.ok(live.value.system?.[0]?.text, 'the base instructions as system prompt');
    const calls = live.value.messages.flatMap((message) =>
      message.content.filter((block) => block.type === 'tool_use').map((block) => (block.input as { cmd: string }).cmd),
    );
    assert.deepEqual(calls, ['wc -l data/ledger.csv', 'head -n 2 data/ledger.csv', 'tail -n 1 data/ledger.csv']);
  });

  it('before the compaction: every call paired, reads, tests and the patch categorised for the engine', async () => {
    const path = await rollout();
    const text = readFileSync(path, 'utf8');
    const cut = join(temp, 'rollout-2026-11-23T22-17-45-01a20a7c-91ba-7042-b356-3b768f64638e.jsonl');
    writeFileSync(cut, text.slice(0, text.indexOf('{"timestamp"', text.indexOf('"type":"compacted"') - 80)));
    const live = await readCodexLiveContext(cut);
    assert.ok(live.ok);
    assert.equal(live.value.compactions.length, 0);
    assertPaired(live.value);
    const context = contextFromMessages({ messages: live.value.messages, windowTokens: live.value.fill.windowTokens, vocabulary: codexAdapter.tools });
    const uses = context.items.filter((item) => item.kind === 'tool_use').map((item) => [item.toolName, item.toolCategory, item.resourceKey]);
    assert.deepEqual(uses, [
      ['exec_command', 'command_execution', 'cmd:ls src test'],
      ['exec_command', 'file_read', 'file:src/sum.js'],
      ['exec_command', 'test_execution', 'cmd:node --test test/'],
      ['exec_command', 'file_read', 'file:src/sum.js#1+10'],
      ['apply_patch', 'file_write', 'file:src/sum.js'],
      ['exec_command', 'test_execution', 'cmd:node --test test/'],
      ['exec_command', 'file_read', 'file:data/ledger.csv'],
      ['exec_command', 'file_read', 'file:data/ledger.csv#1+400'],
    ]);
    assert.ok(
      context.items.some((item) => item.kind === 'thinking'),
      'the reasoning item',
    );
  });

  it('finds the configured limit only beside the rollout', async () => {
    const copy = join(temp, 'elsewhere.jsonl');
    copyFileSync(await rollout(), copy);
    const read = await readCodexFill(copy);
    assert.ok(read.ok);
    assert.equal(read.value.fill.agentAutoCompactTokens, 244_800, "90 % of gpt-5.5's 272000-token window");
  });
});
