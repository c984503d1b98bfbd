import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { appendFileSync, chmodSync, copyFileSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { readFill } from '../../../../src/sessions/claude-code/fill';
import { readLiveContext } from '../../../../src/sessions/claude-code/liveContext';
import { TranscriptBuilder, basicSession, tempDir } from './builders';

/** A copy of a transcript recorded with the real CLI (test/fixtures/claude-code/<scenario>). */
function fixtureCopy(scenario: string): string {
  const projects = join(__dirname, '..', '..', '..', 'fixtures', 'claude-code', scenario, 'projects');
  const project = join(projects, readdirSync(projects)[0] as string);
  const name = readdirSync(project).find((file) => file.endsWith('.jsonl')) as string;
  const copy = join(tempDir(), name);
  copyFileSync(join(project, name), copy);
  return copy;
}

async function fillOf(builder: TranscriptBuilder, options = {}) {
  const result = await readFill(builder.write(tempDir()), options);
  assert.ok(result.ok);
  return result.value;
}

describe('readFill (tail first)', () => {
  it('counts input + cache creation + cache read of the last response, and its output once a user line follows', async () => {
    const builder = new TranscriptBuilder();
    builder.user('go');
    builder.assistant(
      'msg_1',
      [
        { type: 'text', text: 'a' },
        { type: 'tool_use', id: 't1', name: 'Bash', input: {} },
      ],
      { input: 3, cacheCreation: 2000, cacheRead: 50_000, output: 70 },
    );
    let read = await fillOf(builder);
    assert.equal(read.fill.usedTokens, 52_003);
    assert.equal(read.fill.outputTokensPending, 70, 'output of the newest line of the response, still pending');
    assert.equal(read.fill.source, 'usage');
    builder.toolResult('t1', 'done');
    read = await fillOf(builder);
    assert.equal(read.fill.usedTokens, 52_073);
    assert.equal(read.fill.outputTokensPending, 0);
    assert.equal(read.fill.accountedThrough.uuid, '00000000-0000-4000-8000-000000000003');
    assert.deepEqual(read.diagnostics, []);
  });

  it('skips synthetic and API-error assistant lines', async () => {
    const builder = basicSession();
    builder.record({
      type: 'assistant',
      uuid: 'syn',
      parentUuid: builder.head,
      isSidechain: false,
      message: {
        id: 'x',
        role: 'assistant',
        model: '<synthetic>',
        content: [{ type: 'text', text: 'No response requested.' }],
        usage: { input_tokens: 0, output_tokens: 0 },
      },
    });
    const read = await fillOf(builder);
    assert.equal(read.fill.usedTokens, 1145);
  });

  it('takes a call that never reached the API (all-zero usage under the real model name) for no reading', async () => {
    const builder = basicSession();
    builder.text('msg_err', 'API Error: 404 model not found', { input: 0, output: 0 });
    const read = await fillOf(builder);
    assert.equal(read.fill.usedTokens, 1145);
    assert.equal(read.fill.source, 'usage');
  });

  it('after a compaction with no newer response, reports the post-compaction count as an estimate', async () => {
    const builder = basicSession();
    const { boundary } = builder.compact('summary', { postTokens: 3000 });
    const read = await fillOf(builder);
    assert.equal(read.fill.source, 'estimate');
    assert.equal(read.fill.usedTokens, 3000);
    assert.equal(read.fill.compactedSinceUsage, true);
    assert.equal(read.fill.accountedThrough.uuid, boundary);
    builder.text('msg_3', 'after', { input: 4000, output: 5 });
    const after = await fillOf(builder);
    assert.equal(after.fill.source, 'usage');
    assert.equal(after.fill.usedTokens, 4000);
  });

  it('ignores sidechain records in a main transcript', async () => {
    const builder = basicSession();
    const side = new TranscriptBuilder('session-1', '/home/user/project', true);
    side.text('msg_side', 'subagent', { input: 99_999, output: 1 });
    for (const line of side.lines) builder.raw(line);
    const read = await fillOf(builder);
    assert.equal(read.fill.usedTokens, 1145);
  });

  it('no response yet: zero, an estimate, nothing accounted', async () => {
    const builder = new TranscriptBuilder();
    builder.user('hello');
    const read = await fillOf(builder);
    assert.equal(read.fill.usedTokens, 0);
    assert.equal(read.fill.source, 'estimate');
    assert.equal(read.fill.windowSource, 'default');
    assert.deepEqual(read.fill.accountedThrough, { uuid: null, endOffset: 0 });
  });

  it('window and the agent auto-compact point: 200k/167k, [1m], the 1M beta, over-200k usage, override', async () => {
    const base = await fillOf(basicSession());
    assert.equal(base.fill.windowTokens, 200_000);
    assert.equal(base.fill.windowSource, 'model');
    assert.equal(base.fill.agentAutoCompactTokens, 167_000);
    const oneM = new TranscriptBuilder();
    oneM.text('m', 'x', { input: 10, output: 1 }, 'claude-sonnet-4-5[1m]');
    assert.equal((await fillOf(oneM)).fill.windowTokens, 1_000_000);
    const beta = basicSession();
    beta.record({ type: 'api-request', id: 'r', params: { model: 'claude-sonnet-4-5', betas: ['context-1m-2025-08-07'] } });
    beta.record({ type: 'api-request-blob', hash: 'h', message: { role: 'user', content: 'x' } });
    beta.text('msg_9', 'x', { input: 10, output: 1 }, undefined, { requestRef: 'r' });
    assert.equal((await fillOf(beta)).fill.windowTokens, 1_000_000);
    const big = new TranscriptBuilder();
    big.text('m', 'x', { input: 250_000, output: 1 });
    assert.equal((await fillOf(big)).fill.windowTokens, 1_000_000);
    const override = await fillOf(basicSession(), { windowOverride: 500_000 });
    assert.deepEqual([override.fill.windowTokens, override.fill.windowSource, override.fill.agentAutoCompactTokens], [500_000, 'override', 467_000]);
    const lowered = await fillOf(basicSession(), { env: { CLAUDE_AUTOCOMPACT_PCT_OVERRIDE: '50' } });
    assert.equal(lowered.fill.agentAutoCompactTokens, 90_000);
  });

  it('cost follows the distance to the last usage record, not the file size', async () => {
    const builder = new TranscriptBuilder();
    for (let turn = 0; turn < 400; turn++) {
      builder.user(`prompt ${turn} ${'p'.repeat(2000)}`);
      builder.text(`msg_${turn}`, 'answer '.repeat(300), { input: turn, output: 10 });
    }
    builder.user('last prompt');
    const read = await fillOf(builder);
    assert.equal(read.fill.usedTokens, 399 + 10);
    assert.ok(read.size > 1_000_000);
    assert.ok(read.bytesScanned < 10_000, `scanned ${read.bytesScanned} of ${read.size}`);
  });

  it('keeps a half-written last line pending, reports where a follower continues', async () => {
    const dir = tempDir();
    const path = basicSession().write(dir);
    const complete = Buffer.byteLength(basicSession().toString());
    appendFileSync(path, '{"type":"user","mess');
    const read = await readFill(path);
    assert.ok(read.ok);
    assert.equal(read.value.resumeOffset, complete);
    assert.deepEqual(read.value.diagnostics, []);
  });

  it('invalid lines near the end become diagnostics with their line numbers, in file order', async () => {
    const builder = basicSession();
    builder.raw('not json');
    const path = builder.write(tempDir());
    appendFileSync(path, Buffer.concat([Buffer.from('{"type":"custom-title","customTitle":"caf'), Buffer.from([0xe9]), Buffer.from('"}\n')]));
    const read = await readFill(path);
    assert.ok(read.ok);
    assert.equal(read.value.fill.usedTokens, 1145);
    assert.deepEqual(
      read.value.diagnostics.map((diagnostic) => [diagnostic.code, diagnostic.line]),
      [
        ['invalid-json', 6],
        ['invalid-utf8', 7],
      ],
    );
    assert.equal(read.value.diagnostics[0]?.offset, Buffer.byteLength(basicSession().toString()));
  });

  it('estimates what was written after the last response (a prompt, a tool result); the exact count stays as it is', async () => {
    const path = fixtureCopy('multi-prompt');
    const before = await readFill(path);
    assert.ok(before.ok);
    assert.equal(before.value.fill.pendingTokens, 0);
    const prompt = 'Now make the retry delay configurable. '.repeat(20);
    const output = 'PASS test/retry.test.ts (3 tests)\n'.repeat(200);
    const head = readFileSync(path, 'utf8')
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((record) => typeof record.uuid === 'string')
      .at(-1);
    const envelope = {
      isSidechain: false,
      userType: 'external',
      sessionId: head?.sessionId,
      cwd: head?.cwd,
      version: head?.version,
      timestamp: '2099-01-01T00:00:00.000Z',
    };
    appendFileSync(
      path,
      `${JSON.stringify({ ...envelope, type: 'user', uuid: 'pending-1', parentUuid: head?.uuid, message: { role: 'user', content: prompt } })}\n`,
    );
    const result = { type: 'tool_result', tool_use_id: 'toolu_pending', content: [{ type: 'text', text: output }] };
    appendFileSync(
      path,
      `${JSON.stringify({ ...envelope, type: 'user', uuid: 'pending-2', parentUuid: 'pending-1', message: { role: 'user', content: [result] }, toolUseResult: { stdout: output } })}\n`,
    );
    const expected = Math.ceil(prompt.length / 4) + Math.ceil(output.length / 4);
    const after = await readFill(path);
    assert.ok(after.ok);
    assert.equal(after.value.fill.pendingTokens, expected);
    // The usage is the same; its output joined the context once the person spoke again.
    assert.equal(after.value.fill.usedTokens, before.value.fill.usedTokens + before.value.fill.outputTokensPending);
    assert.equal(after.value.fill.source, 'usage');
    const live = await readLiveContext(path);
    assert.ok(live.ok);
    assert.deepEqual([live.value.fill.usedTokens, live.value.fill.pendingTokens], [after.value.fill.usedTokens, expected]);
  });

  it('after a compaction, its post-compaction count covers the summary; what follows is pending', async () => {
    const builder = basicSession();
    builder.compact('summary', { postTokens: 3000 });
    builder.user('next prompt here');
    const read = await fillOf(builder);
    assert.deepEqual([read.fill.usedTokens, read.fill.pendingTokens], [3000, Math.ceil('next prompt here'.length / 4)]);
    builder.text('msg_3', 'answer', { input: 3100, output: 5 });
    assert.equal((await fillOf(builder)).fill.pendingTokens, 0, 'the next response counted it');
  });

  it('missing file, empty file, unreadable file: results, not throws', async () => {
    const missing = await readFill(join(tempDir(), 'nope.jsonl'));
    assert.equal(missing.ok ? 'ok' : missing.error.code, 'not-found');
    const empty = join(tempDir(), 'empty.jsonl');
    writeFileSync(empty, '');
    const emptyRead = await readFill(empty);
    assert.ok(emptyRead.ok);
    assert.equal(emptyRead.value.fill.usedTokens, 0);
    const folder = await readFill(tempDir());
    assert.equal(folder.ok ? 'ok' : folder.error.code, 'io');
  });

  it('permission denied is its own error', async () => {
    const path = basicSession().write(tempDir());
    chmodSync(path, 0o000);
    if (process.getuid?.() !== 0) {
      const read = await readFill(path);
      assert.equal(read.ok ? 'ok' : read.error.code, 'permission-denied');
      return;
    }
    // Root reads everything: read as the unprivileged `nobody` user in a child process instead.
    const root = join(__dirname, '..', '..', '..', '..');
    const module = join(root, 'src', 'sessions', 'claude-code', 'fill.ts');
    const script = `require(${JSON.stringify(module)}).readFill(${JSON.stringify(path)}).then((read) => process.stdout.write(read.ok ? 'ok' : read.error.code));`;
    const child = spawnSync(process.execPath, ['--import', 'tsx', '-e', script], { uid: 65534, gid: 65534, encoding: 'utf8', cwd: root });
    assert.equal(child.stdout, 'permission-denied', child.stderr);
  });
});
