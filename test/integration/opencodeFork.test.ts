// Proof that a fork `ctxlens compact --write-session` writes is a session OpenCode itself resumes:
// the real OpenCode CLI records a session against the chat-completions stand-in, then the shipped
// `ctxlens` (shippedCli.ts: each runtime, cold and warm) finds the file read with `inspect --json`,
// drops it with `compact --drop N --write-session`, which writes the fork through `opencode import`,
// and reads the fork back. `opencode run --session <fork>` then sends our summary, the standing rule
// and the open loop, not the dropped output. The source session's rows stay as they were.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { withStore } from '../../src/sessions/common/opencodeStore';
import { ok } from '../../src/sessions/result';
import { startFakeChat, type FakeChat } from '../support/fake-openai-chat';
import { ensureOpencodeCli, opencodeDb, opencodeEnv, runOpencode } from '../support/opencodeCli';
import { runOutcome } from '../support/cliRun';
import { eachShippedPass, runShippedOnce, type CompactedJson, type InspectedJson } from '../support/shippedCli';

const SECRET_LINE = 'DROPPED-OUTPUT-MARKER the release is on friday';
const RULE = 'Never touch the vendor folder.';
const LOOP = 'Remind me to update the changelog before we release.';
const FIRST_PROMPT = `Read notes.md. ${RULE} ${LOOP}`;
const RUN_TIMEOUT_MS = 180_000;

/** The source session's rows, to compare before and after. */
async function rowsOf(db: string, sessionId: string): Promise<string> {
  const read = await withStore(db, (store) => {
    const pick = (rows: ReturnType<typeof store.parts>) => (rows.ok ? rows.value.map((row) => [row.id, row.data]) : rows);
    return ok(JSON.stringify([pick(store.messages(sessionId)), pick(store.parts(sessionId))]));
  });
  assert.ok(read.ok);
  return read.value;
}

describe('an OpenCode fork written by ctxlens, resumed by the real OpenCode CLI', { timeout: 600_000 }, () => {
  let root: string;
  let chat: FakeChat;
  let binary: string;

  before(async () => {
    binary = ensureOpencodeCli();
    root = mkdtempSync(join(tmpdir(), 'cl-opencode-fork-'));
    chat = await startFakeChat({
      steps: [
        { toolCalls: [{ name: 'read', arguments: { filePath: 'notes.md' } }] },
        { text: 'Noted. I will leave vendor/ alone.' },
        { text: 'Next: the changelog.' },
      ],
    });
  });
  after(async () => {
    await chat?.stop();
    rmSync(root, { recursive: true, force: true });
  });

  it('forks the session with the file read dropped, on every runtime cold and warm; OpenCode resumes it with the summary, the rule and the open loop; the source is unchanged', async () => {
    const workspace = join(root, 'workspace');
    mkdirSync(workspace);
    writeFileSync(join(workspace, 'notes.md'), `${SECRET_LINE}\n`);
    const first = await runOpencode({
      binary,
      root,
      cwd: workspace,
      baseUrl: chat.url,
      timeoutMs: RUN_TIMEOUT_MS,
      args: ['run', '--format', 'json', FIRST_PROMPT],
    });
    assert.equal(first.code, 0, runOutcome(first));
    const db = opencodeDb(root);
    // The person's environment (here the test's offline one) with `opencode` on PATH: --write-session runs `opencode import`.
    const env = { ...opencodeEnv({ root, baseUrl: chat.url }), PATH: `${dirname(binary)}${delimiter}${process.env.PATH ?? ''}` };

    const listed = await runJson<Array<{ readonly id: string }>>(['sessions', '--agent', 'opencode', '--json'], workspace, env);
    assert.equal(listed.length, 1, 'the workspace has one session');
    const source = listed[0]?.id ?? '';
    const sourceRows = await rowsOf(db, source);
    const forks: string[] = [];
    await eachShippedPass(async (pass) => {
      const ctxlens = async <T>(args: readonly string[]): Promise<T> => {
        const run = await pass.run(args, { cwd: workspace, env, timeoutMs: RUN_TIMEOUT_MS });
        assert.equal(run.code, 0, `ctxlens ${args.join(' ')}\n${runOutcome(run)}`);
        return JSON.parse(run.stdout) as T;
      };
      const live = await ctxlens<InspectedJson>(['inspect', source, '--agent', 'opencode', '--json']);
      const output = live.regions.find((region) => region.kind === 'tool_result');
      assert.ok(output, 'one read result');
      const compacted = await ctxlens<CompactedJson>([
        'compact',
        source,
        '--agent',
        'opencode',
        '--drop',
        String(output.id),
        '--write-session',
        '--json',
        '--archive-dir',
        join(root, 'archive'),
      ]);
      assert.equal(compacted.status, 'compacted', compacted.message);
      const fork = compacted.fork;
      assert.ok(fork, 'the fork was written');
      assert.equal(fork.resumeCommand, `opencode --session ${fork.sessionId}`);
      const written = await ctxlens<InspectedJson>(['inspect', fork.sessionId, '--agent', 'opencode', '--json']);
      const summary = written.compactions[0]?.summary ?? '';
      assert.ok(summary.length > 0, 'the fork carries our summary');
      assert.ok(!summary.includes(SECRET_LINE));
      forks.push(fork.sessionId);
    });
    assert.equal(new Set(forks).size, 4, 'four forks, one a pass');

    // OpenCode resumes a fork: the last one written, from a warm cache.
    const fork = forks.at(-1) ?? '';
    const summary = (await runJson<InspectedJson>(['inspect', fork, '--agent', 'opencode', '--json'], workspace, env)).compactions[0]?.summary ?? '';
    const before = chat.requests.length;
    const resumed = await runOpencode({
      binary,
      root,
      cwd: workspace,
      baseUrl: chat.url,
      timeoutMs: RUN_TIMEOUT_MS,
      args: ['run', '--format', 'json', '--session', fork, 'What is next?'],
    });
    assert.equal(resumed.code, 0, runOutcome(resumed));
    assert.deepEqual(chat.errors, []);
    const sent = chat.requests.slice(before).filter((request) => request.kind === 'turn');
    assert.equal(sent.length, 1);
    const text = JSON.stringify(sent[0]?.body.messages.filter((message) => message.role !== 'system'));
    assert.ok(
      text.includes(JSON.stringify(summary.split('\n').find((line) => line.trim().length > 20) ?? summary).slice(1, -1)),
      'our summary reached the model',
    );
    assert.ok(text.includes('vendor folder'), 'the standing rule reached the model');
    assert.ok(text.includes('changelog'), 'the open loop reached the model');
    assert.ok(!text.includes(SECRET_LINE), 'the dropped output was not sent');

    assert.equal(await rowsOf(db, source), sourceRows, "the source session's rows are unchanged");
  });
});

/** `ctxlens <args>` once (the newest runtime, as a person would), its JSON. */
async function runJson<T>(args: readonly string[], cwd: string, env: NodeJS.ProcessEnv): Promise<T> {
  const run = await runShippedOnce(args, { cwd, env });
  assert.equal(run.code, 0, `ctxlens ${args.join(' ')}\n${runOutcome(run)}`);
  return JSON.parse(run.stdout) as T;
}
