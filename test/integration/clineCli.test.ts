// The real Cline CLI (3.0.65, offline against the chat-completions stand-in) end to end: it records a
// session; the shipped `ctxlens` (shippedCli.ts: each runtime, cold and warm) lists it and reads it
// with the exact fill (the prompt the stand-in was sent); a follower started before Cline resumes the
// session reports the appended turn's exact fill; `compact --drop N --write-session` writes a fork,
// and `cline --id <fork>` sends our summary, the standing rule and the open loop, not the dropped
// output. The source's files stay as they were.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { clineAdapter } from '../../src/sessions/cline/adapter';
import type { ContextChange } from '../../src/sessions/types';
import { runOutcome } from '../support/cliRun';
import { clineDataDir, clineEnv, ensureClineCli, resumeInTerminal, runClineTask } from '../support/clineCli';
import { startFakeChat, type FakeChat } from '../support/fake-openai-chat';
import { eachShippedPass, runShippedOnce, type CompactedJson, type InspectedJson } from '../support/shippedCli';

const SECRET_LINE = 'DROPPED-OUTPUT-MARKER the release is on friday';
const RULE = 'Never touch the vendor folder.';
const LOOP = 'Remind me to update the changelog before we release.';
const FIRST_PROMPT = `Read notes.md. ${RULE} ${LOOP}`;
const RUN_TIMEOUT_MS = 90_000;

const turnPrompts = (chat: FakeChat): number[] => chat.requests.filter((request) => request.kind === 'turn').map((request) => request.prompt);

describe('Cline sessions, with the real CLI offline', { timeout: 300_000 }, () => {
  let root: string;
  let workspace: string;
  let chat: FakeChat;

  before(async () => {
    ensureClineCli();
    root = mkdtempSync(join(tmpdir(), 'cl-cline-cli-'));
    workspace = join(root, 'workspace');
    mkdirSync(workspace);
    writeFileSync(join(workspace, 'notes.md'), `${SECRET_LINE}\n`);
    chat = await startFakeChat({
      steps: [
        { toolCalls: [{ name: 'read_files', arguments: { paths: [join(workspace, 'notes.md')] } }] },
        { text: 'Noted. I will leave vendor/ alone.' },
        { text: 'A test for the retry is next.' },
        { text: 'Next: the changelog.' },
      ],
    });
  });
  after(async () => {
    await chat?.stop();
    rmSync(root, { recursive: true, force: true });
  });

  it('reads the session with the exact fill, follows an appended turn, and writes a fork Cline resumes with the summary, the rule and the open loop', async () => {
    const first = await runClineTask(FIRST_PROMPT, { root, cwd: workspace, baseUrl: chat.url, timeoutMs: RUN_TIMEOUT_MS });
    assert.equal(first.code, 0, runOutcome(first));
    assert.deepEqual(chat.errors, []);
    // The person's environment: their HOME holds ~/.cline/data, where ctxlens looks by default.
    const env = clineEnv(root, 0);

    const listed = await runJson<Array<{ readonly id: string; readonly path: string }>>(['sessions', '--agent', 'cline', '--json'], workspace, env);
    assert.equal(listed.length, 1, 'the workspace has one session');
    const source = listed[0]!;
    const sourceFile = source.path;
    assert.ok(sourceFile.startsWith(clineDataDir(root)));
    const exact = turnPrompts(chat).at(-1);
    const inspected = await runJson<{ used: { tokens: number; source: string } }>(['inspect', source.id, '--agent', 'cline', '--json'], workspace, env);
    assert.deepEqual(inspected.used, { ...inspected.used, tokens: exact, source: 'usage' }, 'the fill is the prompt Cline sent');

    // Live: a follower, then Cline resumes the session and appends a turn.
    const info = await clineAdapter.readSessionInfo(sourceFile);
    assert.ok(info.ok);
    const follower = await clineAdapter.follow(info.value);
    const changes: ContextChange[] = [];
    follower.on('contextChanged', (change) => changes.push(change));
    try {
      await follower.start();
      const resumed = await resumeInTerminal(source.id, 'One more thing: add a test for the retry.', {
        root,
        cwd: workspace,
        baseUrl: chat.url,
        timeoutMs: RUN_TIMEOUT_MS,
      });
      assert.equal(turnPrompts(chat).length, 3, `Cline sent the appended turn\n${runOutcome(resumed)}`);
      const appended = turnPrompts(chat).at(-1);
      const deadline = Date.now() + 10_000;
      while (!changes.some((change) => change.fill.usedTokens === appended) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
      const change = changes.find((seen) => seen.fill.usedTokens === appended);
      assert.ok(change, `followed to ${appended} (saw ${changes.map((seen) => `${seen.reason} ${seen.fill.usedTokens}`).join(', ')})`);
      assert.equal(change.fill.source, 'usage');
    } finally {
      follower.dispose();
    }

    const sourceBytes = readFileSync(sourceFile);
    const forks: string[] = [];
    await eachShippedPass(async (pass) => {
      const ctxlens = async <T>(args: readonly string[]): Promise<T> => {
        const run = await pass.run(args, { cwd: workspace, env, timeoutMs: RUN_TIMEOUT_MS });
        assert.equal(run.code, 0, `ctxlens ${args.join(' ')}\n${runOutcome(run)}`);
        return JSON.parse(run.stdout) as T;
      };
      const live = await ctxlens<InspectedJson>(['inspect', source.id, '--agent', 'cline', '--json']);
      const output = live.regions.find((region) => region.kind === 'tool_result');
      assert.ok(output, 'one read result');
      const compacted = await ctxlens<CompactedJson>([
        'compact',
        source.id,
        '--agent',
        'cline',
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
      assert.equal(fork.resumeCommand, `cline --id ${fork.sessionId}`);
      const written = await ctxlens<InspectedJson & { used: { tokens: number } }>(['inspect', fork.sessionId, '--agent', 'cline', '--json']);
      assert.ok(!JSON.stringify(written).includes(SECRET_LINE), 'the dropped output is not in the fork');
      forks.push(fork.sessionId);
    });
    assert.equal(new Set(forks).size, 4, 'four forks, one a pass');
    assert.deepEqual(readFileSync(sourceFile), sourceBytes, "the source's messages are unchanged");

    // Cline resumes a fork: the last one written.
    const fork = forks.at(-1)!;
    const before = chat.requests.length;
    const resumed = await resumeInTerminal(fork, 'What is next?', { root, cwd: workspace, baseUrl: chat.url, timeoutMs: RUN_TIMEOUT_MS });
    assert.deepEqual(chat.errors, []);
    const sent = chat.requests.slice(before).filter((request) => request.kind === 'turn');
    assert.equal(sent.length, 1, `one request from the resumed fork\n${runOutcome(resumed)}`);
    const text = JSON.stringify(sent[0]?.body.messages.filter((message) => message.role !== 'system'));
    assert.ok(text.includes('This session is being continued from a previous conversation'), 'our summary reached the model');
    assert.ok(text.includes('vendor folder'), 'the standing rule reached the model');
    assert.ok(text.includes('changelog'), 'the open loop reached the model');
    assert.ok(!text.includes(SECRET_LINE), 'the dropped output was not sent');
  });
});

/** `ctxlens <args>` once (the newest runtime, as a person would), its JSON. */
async function runJson<T>(args: readonly string[], cwd: string, env: NodeJS.ProcessEnv): Promise<T> {
  const run = await runShippedOnce(args, { cwd, env });
  assert.equal(run.code, 0, `ctxlens ${args.join(' ')}\n${runOutcome(run)}`);
  return JSON.parse(run.stdout) as T;
}
