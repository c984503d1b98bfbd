// Issue 39, Redo with Context Lens for OpenCode: on its own compaction recorded with the real CLI
// (compaction-audit: its summary dropped the rule to run npm test before reporting and the decision
// to keep the line format), the shipped `ctxlens compact --redo last --write-session` writes our
// compaction of the session as it stood before OpenCode's as a new session (through `opencode
// import`), and the real OpenCode 1.18.33 (offline, against the chat-completions stand-in) resumes
// it: its request carries what OpenCode's summary had dropped, and nothing said after its
// compaction.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runOutcome } from '../support/cliRun';
import { startFakeChat, type FakeChat } from '../support/fake-openai-chat';
import { ensureOpencodeCli, opencodeDb, opencodeEnv, runOpencode } from '../support/opencodeCli';
import { imageAfter, unpackFixture } from '../support/opencodeWal';
import { runShippedOnce } from '../support/shippedCli';

/** The recording's one session (re-recording changes it). */
const SESSION = 'ses_ddf96ececffeb8LioG5LufWfdc';
const DROPPED = ['Always run npm test before you report that a change works.', 'We decided to keep the line format unchanged.'];
/** The person's prompt after OpenCode's compaction: not part of the session Redo compacts. */
const AFTER = 'Anything else?';
const RUN_TIMEOUT_MS = 180_000;

describe("Redo with Context Lens of OpenCode's own compaction, resumed by the real CLI", { timeout: 400_000 }, () => {
  let root: string;
  let chat: FakeChat;
  let binary: string;

  before(async () => {
    binary = ensureOpencodeCli();
    root = mkdtempSync(join(tmpdir(), 'cl-redo-opencode-'));
    chat = await startFakeChat({ steps: [{ text: 'Resumed from the redo.' }] });
  });
  after(async () => {
    await chat?.stop();
    rmSync(root, { recursive: true, force: true });
  });

  it('compact --redo last --write-session imports a session of the history before the compaction; opencode run --session sends what the summary dropped', async () => {
    const workspace = join(root, 'workspace');
    mkdirSync(workspace, { recursive: true });
    writeFileSync(join(workspace, 'big.txt'), 'the quick brown fox\n');
    // The recording's folder, made this test's: OpenCode resumes a session only from its own directory.
    const db = opencodeDb(root);
    writeFileSync(db, await imageAfter(unpackFixture('compaction-audit', db), 'update session set directory = ?', [workspace]));
    const env = { ...opencodeEnv({ root, baseUrl: chat.url }), PATH: `${dirname(binary)}${delimiter}${process.env.PATH ?? ''}` };

    const run = await runShippedOnce(
      ['compact', SESSION, '--agent', 'opencode', '--redo', 'last', '--write-session', '--json', '--archive-dir', join(root, 'archive')],
      {
        cwd: workspace,
        env,
        timeoutMs: RUN_TIMEOUT_MS,
      },
    );
    assert.equal(run.code, 0, runOutcome(run));
    const result = JSON.parse(run.stdout) as { status: string; message: string; fork?: { sessionId: string; resumeCommand: string } };
    assert.equal(result.status, 'compacted', result.message);
    assert.ok(result.fork, 'the fork was written');
    assert.equal(result.fork.resumeCommand, `opencode --session ${result.fork.sessionId}`);

    const resumed = await runOpencode({
      binary,
      root,
      cwd: workspace,
      baseUrl: chat.url,
      timeoutMs: RUN_TIMEOUT_MS,
      args: ['run', '--format', 'json', '--session', result.fork.sessionId, 'continue'],
    });
    assert.equal(resumed.code, 0, runOutcome(resumed));
    assert.deepEqual(chat.errors, []);
    const turns = chat.requests.filter((request) => request.kind === 'turn');
    assert.equal(turns.length, 1, 'one model call for the resumed turn');
    const sent = JSON.stringify(turns[0]?.body.messages.filter((message) => message.role !== 'system'));
    for (const words of DROPPED) assert.ok(sent.includes(words), `what OpenCode's summary dropped is sent: ${words}\n${sent.slice(0, 3000)}`);
    assert.ok(!sent.includes(AFTER), "the redo compacts the session as it stood before OpenCode's compaction");
    assert.ok(!sent.includes('The user said big.txt must never be edited.'), "OpenCode's own summary is what ours replaces");
  });
});
