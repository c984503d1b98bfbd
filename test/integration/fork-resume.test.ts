// Proof that a fork Context Lens writes is a session Claude Code itself resumes: the real CLI,
// run with `--resume <fork id>` against the API stand-in, sends our summary and the preserved
// messages, and none of what the compaction dropped. The recorded source stays byte-identical.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { compact } from '../../src/engine';
import { readLiveContext } from '../../src/sessions/claude-code/liveContext';
import { writeFork } from '../../src/sessions/claude-code/fork';
import { engineContextOf } from '../../src/sessions/engineContext';
import { forkRequestFromResult } from '../../src/sessions/claude-code/engineContext';
import { ensureClaudeCli, printArgs, projectDir, runClaude } from '../support/claude-cli';
import { type FakeAnthropic, reply, startFakeAnthropic, text } from '../support/fake-anthropic';

const FIXTURES = join(__dirname, '..', 'fixtures', 'claude-code');
const SUMMARY = 'CONTEXT-LENS-SUMMARY: createClient gained an optional timeoutMs (default 10 s); config/prod.yaml sets 5000 and must not be modified.';
/** The first prompt of the recorded session: compacted into the summary, so it must not be sent verbatim. */
const DROPPED = 'Add an optional timeoutMs to createClient in src/client.ts';
/** The last prompt: preserved verbatim. */
const PRESERVED = 'Add a small smoke test for the new option in test/client.smoke.ts.';

const sha256 = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

/** Lays a recorded session out where the CLI looks for sessions of `cwd`, as if recorded there. */
function installFixture(scenario: string, configDir: string, cwd: string): string {
  const projects = join(FIXTURES, scenario, 'projects');
  const [folder] = readdirSync(projects);
  assert.ok(folder);
  const [file] = readdirSync(join(projects, folder)).filter((name) => name.endsWith('.jsonl'));
  assert.ok(file);
  const target = projectDir(configDir, cwd);
  mkdirSync(target, { recursive: true });
  // The sanitised fixtures were recorded in /home/user/<project>.
  const recordedCwd = `/home/user/${folder.slice('-home-user-'.length)}`;
  const text = readFileSync(join(projects, folder, file), 'utf8').split(recordedCwd).join(cwd);
  writeFileSync(join(target, file), text);
  return join(target, file);
}

describe('a fork written by Context Lens, resumed by the real Claude Code CLI', () => {
  const root = mkdtempSync(join(tmpdir(), 'cl-fork-resume-'));
  const configDir = join(root, 'config');
  let binary: string;
  let server: FakeAnthropic;

  before(async () => {
    binary = ensureClaudeCli();
    server = await startFakeAnthropic({ scenario: { turns: [() => reply(text('Resumed from the summary.'))], fallback: () => reply(text('Resumed from the summary.')) } });
  });

  /** Resumes `sessionId` with one more prompt; returns the messages of the request the CLI sent. */
  async function resume(cwd: string, sessionId: string): Promise<string> {
    const already = server.requests.length;
    const run = await runClaude({ binary, args: printArgs({ prompt: 'Carry on with the next step.', resume: sessionId }), cwd, configDir, baseUrl: server.url, timeoutMs: 80_000 });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout.trim(), 'Resumed from the summary.');
    const main = server.requests.slice(already).filter((request) => request.kind === 'main');
    assert.equal(main.length, 1);
    return JSON.stringify((main[0]?.body as { messages: unknown }).messages);
  }
  after(async () => {
    await server?.stop();
    rmSync(root, { recursive: true, force: true });
  });

  it('sends our summary and the preserved turns, and nothing that was dropped', { timeout: 90_000 }, async () => {
    const cwd = join(root, 'multi-prompt');
    mkdirSync(cwd, { recursive: true });
    const source = installFixture('multi-prompt', configDir, cwd);
    const hashBefore = sha256(source);
    const live = await readLiveContext(source);
    assert.ok(live.ok, live.ok ? '' : live.error.message);
    assert.ok(JSON.stringify(live.value.messages).includes(DROPPED), 'the source session holds the text the fork drops');
    const lastPrompt = live.value.entries.findLastIndex((entry) => entry.kind === 'user');
    assert.ok(lastPrompt > 0, 'the fixture has several prompts');
    const preserveUuids = live.value.entries.slice(lastPrompt).flatMap((entry) => entry.uuids);

    const fork = await writeFork({ sourcePath: source, summary: SUMMARY, preserveUuids, focus: 'the timeout option', preTokens: live.value.fill.usedTokens, postTokens: 2_000 });
    assert.ok(fork.ok, fork.ok ? '' : fork.error.message);
    assert.equal(sha256(source), hashBefore, 'the source transcript must not change');

    const sent = await resume(cwd, fork.value.sessionId);
    assert.ok(sent.includes('CONTEXT-LENS-SUMMARY'), 'the summary was not sent');
    assert.ok(sent.includes(PRESERVED), 'the preserved prompt was not sent');
    assert.ok(sent.includes('Carry on with the next step.'));
    assert.ok(!sent.includes(DROPPED), 'dropped content reached the API');
  });

  it('sends the stubs of an in-place compaction instead of the superseded outputs', { timeout: 90_000 }, async () => {
    const cwd = join(root, 'repeated-reads');
    mkdirSync(cwd, { recursive: true });
    const source = installFixture('repeated-reads', configDir, cwd);
    const live = await readLiveContext(source);
    assert.ok(live.ok);
    const context = engineContextOf(live.value);
    const result = await compact(context, { trigger: 'manual', summary: { enabled: false }, preserve: { recentTurns: 1, recentPercent: 0 } });
    assert.equal(result.status, 'compacted', result.message);
    const request = await forkRequestFromResult({ live: live.value, context, result });
    assert.ok(request.ok, request.ok ? '' : request.error.message);
    const fork = await writeFork(request.value);
    assert.ok(fork.ok, fork.ok ? '' : fork.error.message);

    const sent = await resume(cwd, fork.value.sessionId);
    assert.match(sent, /\[COMPACTED\] Earlier (\w+ )?output for /);
    assert.ok(sent.includes('Context Lens compacted older tool results in place'));
  });

  it('resumes a compacted session of parallel tool calls and a subagent with every call paired', { timeout: 90_000 }, async () => {
    const cwd = join(root, 'ledger-service');
    mkdirSync(cwd, { recursive: true });
    const source = installFixture('parallel', configDir, cwd);
    const live = await readLiveContext(source);
    assert.ok(live.ok);
    assert.deepEqual(live.value.diagnostics, []);
    const context = engineContextOf(live.value);
    const result = await compact(context, { trigger: 'manual', targetTokens: 30_000, explicitTarget: true, preserve: { recentTurns: 1, recentPercent: 0 } });
    assert.equal(result.status, 'compacted', result.message);
    const request = await forkRequestFromResult({ live: live.value, context, result });
    assert.ok(request.ok, request.ok ? '' : request.error.message);
    const fork = await writeFork(request.value);
    assert.ok(fork.ok, fork.ok ? '' : fork.error.message);

    const messages = JSON.parse(await resume(cwd, fork.value.sessionId)) as { role: string; content: string | { type: string; id?: string; tool_use_id?: string }[] }[];
    const blocks = messages.flatMap((message) => (typeof message.content === 'string' ? [] : message.content));
    const uses = blocks.filter((block) => block.type === 'tool_use').map((block) => block.id);
    const results = blocks.filter((block) => block.type === 'tool_result').map((block) => block.tool_use_id);
    assert.ok(uses.length >= 6, `the fork keeps parallel calls (${uses.length} sent)`);
    assert.deepEqual([...results].sort(), [...uses].sort(), 'every tool_use the CLI sent has its tool_result');
    // Each call's result comes in the user message right after the assistant message that made it.
    messages.forEach((message, index) => {
      if (message.role !== 'assistant' || typeof message.content === 'string') return;
      const next = messages[index + 1];
      const answered = new Set(typeof next?.content === 'string' ? [] : (next?.content ?? []).map((block) => block.tool_use_id));
      for (const block of message.content) if (block.type === 'tool_use') assert.ok(answered.has(block.id), `${block.id} answered in the next message`);
    });
  });
});
