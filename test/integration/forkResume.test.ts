// Proof that a fork Context Lens writes is a session Claude Code itself resumes: the real CLI,
// run with `--resume <fork id>` against the API stand-in, sends our summary and the preserved
// messages, and none of what the compaction dropped. The recorded source stays byte-identical.
// The forks of an in-place compaction and of parallel calls are written by the shipped `ctxlens
// compact --write-session` in every pass of shippedCli.ts (each runtime, cold and warm), and each is
// resumed; the first test writes a fork with a summary of its own choosing, which no command
// takes, through the fork writer itself.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { readLiveContext } from '../../src/sessions/claude-code/liveContext';
import { writeFork } from '../../src/sessions/claude-code/fork';
import { runOutcome } from '../support/cliRun';
import { eachShippedPass, runShippedOnce } from '../support/shippedCli';
import { ensureClaudeCli, printArgs, projectDir, runClaude } from '../support/claudeCli';
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
  const text = readFileSync(join(projects, folder, file), 'utf8')
    .split(recordedCwd)
    .join(cwd);
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
    server = await startFakeAnthropic({
      scenario: { turns: [() => reply(text('Resumed from the summary.'))], fallback: () => reply(text('Resumed from the summary.')) },
    });
  });

  /** Resumes `sessionId` with one more prompt; returns the messages of the request the CLI sent. */
  async function resume(cwd: string, sessionId: string): Promise<string> {
    const already = server.requests.length;
    const run = await runClaude({
      binary,
      args: printArgs({ prompt: 'Carry on with the next step.', resume: sessionId }),
      cwd,
      configDir,
      baseUrl: server.url,
      timeoutMs: 80_000,
    });
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

    const fork = await writeFork({
      sourcePath: source,
      summary: SUMMARY,
      preserveUuids,
      focus: 'the timeout option',
      preTokens: live.value.fill.usedTokens,
      postTokens: 2_000,
    });
    assert.ok(fork.ok, fork.ok ? '' : fork.error.message);
    assert.equal(sha256(source), hashBefore, 'the source transcript must not change');

    const sent = await resume(cwd, fork.value.sessionId);
    assert.ok(sent.includes('CONTEXT-LENS-SUMMARY'), 'the summary was not sent');
    assert.ok(sent.includes(PRESERVED), 'the preserved prompt was not sent');
    assert.ok(sent.includes('Carry on with the next step.'));
    assert.ok(!sent.includes(DROPPED), 'dropped content reached the API');
  });

  it(
    'sends the stubs of an in-place compaction instead of the superseded outputs, from ctxlens compact --write-session on every runtime, cold and warm',
    { timeout: 240_000 },
    async () => {
      const cwd = join(root, 'repeated-reads');
      mkdirSync(cwd, { recursive: true });
      const source = installFixture('repeated-reads', configDir, cwd);
      const hashBefore = sha256(source);
      // A target one token below the fill: the first tier (stubs for outputs a later read superseded) meets it, no summary is made.
      const preview = await runShippedOnce(['compact', source, '--json'], { cwd });
      assert.equal(preview.code, 0, runOutcome(preview));
      const target = (JSON.parse(preview.stdout) as { before: { tokens: number } }).before.tokens - 1;
      for (const fork of await shippedForks(source, cwd, ['--target-tokens', String(target)])) {
        const sent = await resume(cwd, fork);
        assert.match(sent, /\[COMPACTED\] Earlier (\w+ )?output for /);
        assert.ok(sent.includes('Context Lens compacted older tool results in place'));
      }
      assert.equal(sha256(source), hashBefore, 'the source transcript must not change');
    },
  );

  it(
    'resumes a compacted session of parallel tool calls and a subagent with every call paired, from ctxlens compact --write-session on every runtime, cold and warm',
    { timeout: 240_000 },
    async () => {
      const cwd = join(root, 'ledger-service');
      mkdirSync(cwd, { recursive: true });
      const source = installFixture('parallel', configDir, cwd);
      const inspected = await runShippedOnce(['inspect', source, '--json'], { cwd });
      assert.equal(inspected.code, 0, runOutcome(inspected));
      assert.deepEqual((JSON.parse(inspected.stdout) as { diagnostics: unknown[] }).diagnostics, []);
      for (const fork of await shippedForks(source, cwd, ['--target-tokens', '30000'])) assertPaired(await resume(cwd, fork));
    },
  );
});

/** `ctxlens compact <source> <options> --write-session` in every pass of shippedCli.ts: the forks' session ids. */
async function shippedForks(source: string, cwd: string, options: readonly string[]): Promise<string[]> {
  const forks: string[] = [];
  await eachShippedPass(async (pass) => {
    const run = await pass.run(['compact', source, ...options, '--write-session', '--json', '--archive-dir', join(cwd, '..', 'archive')], { cwd });
    assert.equal(run.code, 0, runOutcome(run));
    const compacted = JSON.parse(run.stdout) as { status: string; message: string; fork?: { sessionId: string; resumeCommand: string } };
    assert.equal(compacted.status, 'compacted', compacted.message);
    assert.ok(compacted.fork, 'the fork was written');
    assert.equal(compacted.fork.resumeCommand, `claude --resume ${compacted.fork.sessionId}`);
    forks.push(compacted.fork.sessionId);
  });
  assert.equal(new Set(forks).size, 4, 'four forks, one a pass');
  return forks;
}

/** Every tool_use the CLI sent has its tool_result, in the user message right after the assistant message that made it. */
function assertPaired(sent: string): void {
  const messages = JSON.parse(sent) as { role: string; content: string | { type: string; id?: string; tool_use_id?: string }[] }[];
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
}
