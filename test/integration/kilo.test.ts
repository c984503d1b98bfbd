// Kilo, end to end with the real CLI (@kilocode/cli 7.7.7, offline against the chat-completions
// stand-in): the shipped `ctxlens` (shippedCli.ts: each runtime, cold and warm) finds the session Kilo
// recorded, reads the exact fill the stand-in was sent while the newest rows are still only in
// Kilo's log, a follower started before a second `kilo run` reports that run's call, and a fork
// written by `compact --drop N --write-session` goes in through `kilo import`. `kilo run --session
// <fork>` then sends our summary, the standing rule and the open loop, not the dropped output; the
// source session's rows stay as they were.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { withStore } from '../../src/sessions/common/opencodeStore';
import { kiloAdapter } from '../../src/sessions/kilo/adapter';
import { ok } from '../../src/sessions/result';
import type { ContextChange } from '../../src/sessions/types';
import { runOutcome } from '../support/cliRun';
import { startFakeChat, type FakeChat } from '../support/fake-openai-chat';
import { ensureKiloCli, kiloDb, kiloEnv, runKilo } from '../support/kiloCli';
import { eachShippedPass, runShippedOnce, type CompactedJson, type InspectedJson } from '../support/shippedCli';

const SECRET_LINE = 'DROPPED-OUTPUT-MARKER the release is on friday';
const RULE = 'Never touch the vendor folder.';
const LOOP = 'Remind me to update the changelog before we release.';
const FIRST_PROMPT = `Read notes.md. ${RULE} ${LOOP}`;
/** A run takes 15–60 s on two shared cores. */
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

/** The prompt the stand-in priced for the newest turn request: what Kilo's call was sent. */
function lastTurnPrompt(chat: FakeChat): number {
  const last = chat.requests.filter((request) => request.kind === 'turn').at(-1);
  assert.ok(last);
  return last.prompt;
}

describe('Kilo with the real CLI: exact fill from its log, live follow, a fork Kilo resumes', { timeout: 900_000 }, () => {
  let root: string;
  let chat: FakeChat;
  let binary: string;

  before(async () => {
    binary = ensureKiloCli();
    root = mkdtempSync(join(tmpdir(), 'cl-kilo-'));
    chat = await startFakeChat({
      steps: [
        { toolCalls: [{ name: 'read', arguments: { filePath: 'notes.md' } }] },
        { text: 'Noted. I will leave vendor/ alone.' },
        { toolCalls: [{ name: 'bash', arguments: { command: 'echo hi', description: 'Say hi' } }] },
        { text: 'It printed hi.' },
        { text: 'Next: the changelog.' },
      ],
    });
  });
  after(async () => {
    await chat?.stop();
    rmSync(root, { recursive: true, force: true });
  });

  it('reads, follows and forks a session the real Kilo recorded; Kilo resumes the fork with the summary, the rule and the open loop', async () => {
    const workspace = join(root, 'workspace');
    mkdirSync(workspace);
    writeFileSync(join(workspace, 'notes.md'), `${SECRET_LINE}\n`);
    const first = await runKilo({
      binary,
      root,
      cwd: workspace,
      baseUrl: chat.url,
      timeoutMs: RUN_TIMEOUT_MS,
      args: ['run', '--format', 'json', FIRST_PROMPT],
    });
    assert.equal(first.code, 0, runOutcome(first));
    const db = kiloDb(root);
    // Kilo leaves its newest rows in the log after it exits: a reader of the file alone is behind.
    assert.ok(statSync(`${db}-wal`).size > 0);
    // The person's environment (here the test's offline one) with `kilo` on PATH: --write-session runs `kilo import`.
    const env = { ...kiloEnv({ root, baseUrl: chat.url }), PATH: `${dirname(binary)}${delimiter}${process.env.PATH ?? ''}` };

    // Found by its default place (XDG_DATA_HOME/kilo/kilo.db) and told apart from OpenCode's by the registry alone.
    const listed = await runJson<Array<{ readonly id: string; readonly agent: string }>>(['sessions', '--json'], workspace, env);
    assert.deepEqual(
      listed.map((session) => session.agent),
      ['kilo'],
      "the workspace has one session, Kilo's",
    );
    const source = listed[0]?.id ?? '';
    const fill = lastTurnPrompt(chat);

    // Live: a follower started before a second run reports that run's call, to the exact prompt sent.
    const found = await kiloAdapter.readSessionInfo(`${db}#${source}`);
    assert.ok(found.ok, JSON.stringify(found));
    const follower = await kiloAdapter.follow(found.value, { env });
    const changes: ContextChange[] = [];
    follower.on('contextChanged', (change) => changes.push(change));
    await follower.start();
    try {
      assert.equal(changes[0]?.reason, 'initial');
      assert.equal(changes[0]?.fill.usedTokens, fill);
      const second = await runKilo({
        binary,
        root,
        cwd: workspace,
        baseUrl: chat.url,
        timeoutMs: RUN_TIMEOUT_MS,
        args: ['run', '--format', 'json', '--session', source, 'Run echo hi.'],
      });
      assert.equal(second.code, 0, runOutcome(second));
      const deadline = Date.now() + 10_000;
      while (changes.at(-1)?.fill.usedTokens !== lastTurnPrompt(chat) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
      assert.equal(changes.at(-1)?.fill.usedTokens, lastTurnPrompt(chat));
      assert.ok(lastTurnPrompt(chat) > fill);
      assert.ok(changes.some((change) => change.reason === 'append'));
    } finally {
      follower.dispose();
    }

    const sourceRows = await rowsOf(db, source);
    const forks: string[] = [];
    await eachShippedPass(async (pass) => {
      const ctxlens = async <T>(args: readonly string[]): Promise<T> => {
        const run = await pass.run(args, { cwd: workspace, env, timeoutMs: RUN_TIMEOUT_MS });
        assert.equal(run.code, 0, `ctxlens ${args.join(' ')}\n${runOutcome(run)}`);
        return JSON.parse(run.stdout) as T;
      };
      const live = await ctxlens<InspectedJson & { used: { tokens: number; source: string } }>(['inspect', source, '--json']);
      assert.equal(live.used.tokens, lastTurnPrompt(chat), 'the exact fill, from the log');
      assert.equal(live.used.source, 'usage');
      const output = live.regions.find((region) => region.kind === 'tool_result');
      assert.ok(output, 'the read result');
      const compacted = await ctxlens<CompactedJson>([
        'compact',
        source,
        '--agent',
        'kilo',
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
      assert.equal(fork.resumeCommand, `kilo --session ${fork.sessionId}`);
      const written = await ctxlens<InspectedJson>(['inspect', fork.sessionId, '--agent', 'kilo', '--json']);
      const summary = written.compactions[0]?.summary ?? '';
      assert.ok(summary.length > 0, 'the fork carries our summary');
      assert.ok(!summary.includes(SECRET_LINE));
      forks.push(fork.sessionId);
    });
    assert.equal(new Set(forks).size, 4, 'four forks, one a pass');

    // Kilo resumes a fork: the last one written, from a warm cache.
    const fork = forks.at(-1) ?? '';
    const summary = (await runJson<InspectedJson>(['inspect', fork, '--agent', 'kilo', '--json'], workspace, env)).compactions[0]?.summary ?? '';
    const before = chat.requests.length;
    const resumed = await runKilo({
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
