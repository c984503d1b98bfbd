// Proof that a fork Context Lens writes is a session Claude Code itself resumes: the real CLI,
// run with `--resume <fork id>` against the API stand-in, sends our summary and the preserved
// messages, and none of what the compaction dropped. The recorded source stays byte-identical.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { readLiveContext, writeFork } from '../../src/sessions/claude-code';
import { ensureClaudeCli, printArgs, projectDir, runClaude } from '../support/claude-cli';
import { type FakeAnthropic, reply, startFakeAnthropic, text } from '../support/fake-anthropic';

const FIXTURE = join(__dirname, '..', 'fixtures', 'claude-code', 'multi-prompt', 'projects');
const RECORDED_CWD = '/home/user/multi-prompt';
const SUMMARY = 'CONTEXT-LENS-SUMMARY: createClient gained an optional timeoutMs (default 10 s); config/prod.yaml sets 5000 and must not be modified.';
/** The first prompt of the recorded session: compacted into the summary, so it must not be sent verbatim. */
const DROPPED = 'Add an optional timeoutMs to createClient in src/client.ts';
/** The last prompt: preserved verbatim. */
const PRESERVED = 'Add a small smoke test for the new option in test/client.smoke.ts.';

const sha256 = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

/** Lays the recorded session out where the CLI looks for sessions of `cwd`, as if recorded there. */
function installFixture(configDir: string, cwd: string): string {
  const [folder] = readdirSync(FIXTURE);
  assert.ok(folder);
  const [file] = readdirSync(join(FIXTURE, folder)).filter((name) => name.endsWith('.jsonl'));
  assert.ok(file);
  const target = projectDir(configDir, cwd);
  mkdirSync(target, { recursive: true });
  const text = readFileSync(join(FIXTURE, folder, file), 'utf8').split(RECORDED_CWD).join(cwd);
  writeFileSync(join(target, file), text);
  return join(target, file);
}

describe('a fork written by Context Lens, resumed by the real Claude Code CLI', () => {
  const root = mkdtempSync(join(tmpdir(), 'cl-fork-resume-'));
  const cwd = join(root, 'multi-prompt');
  const configDir = join(root, 'config');
  let binary: string;
  let server: FakeAnthropic;

  before(async () => {
    binary = ensureClaudeCli();
    mkdirSync(cwd, { recursive: true });
    server = await startFakeAnthropic({ scenario: { turns: [() => reply(text('Resumed from the summary.'))] } });
  });
  after(async () => {
    await server?.stop();
    rmSync(root, { recursive: true, force: true });
  });

  it('sends our summary and the preserved turns, and nothing that was dropped', { timeout: 90_000 }, async () => {
    const source = installFixture(configDir, cwd);
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

    const run = await runClaude({ binary, args: printArgs({ prompt: 'Carry on with the next step.', resume: fork.value.sessionId }), cwd, configDir, baseUrl: server.url, timeoutMs: 80_000 });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout.trim(), 'Resumed from the summary.');

    const main = server.requests.filter((request) => request.kind === 'main');
    assert.equal(main.length, 1);
    const sent = JSON.stringify((main[0]?.body as { messages: unknown }).messages);
    assert.ok(sent.includes('CONTEXT-LENS-SUMMARY'), 'the summary was not sent');
    assert.ok(sent.includes(PRESERVED), 'the preserved prompt was not sent');
    assert.ok(sent.includes('Carry on with the next step.'));
    assert.ok(!sent.includes(DROPPED), 'dropped content reached the API');
  });
});
