// The real OpenCode CLI (1.18.33, offline against the chat-completions stand-in) writing its
// database while we read it: right after a run its newest rows are still only in the log, and the
// fill we read is exactly the prompt the stand-in was sent; a follower started before a second run
// reports that run's call. The shipped `ctxlens inspect` (each runtime, cold and warm) reads the
// same exact fill from the log. Nothing of ours is written beside OpenCode's database.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { opencodeAdapter } from '../../src/sessions/opencode/adapter';
import { openStore } from '../../src/sessions/common/opencodeStore';
import type { SessionLocations } from '../../src/sessions/port';
import type { ContextChange } from '../../src/sessions/types';
import { startFakeChat, type FakeChat } from '../support/fake-openai-chat';
import { ensureOpencodeCli, opencodeDb, runOpencode } from '../support/opencodeCli';
import { runOutcome } from '../support/cliRun';
import { eachShippedPass } from '../support/shippedCli';
import { findWorkspaceSession } from '../../src/sessions/handle/defaults';

/** A run takes 15–60 s on two shared cores. */
const RUN_TIMEOUT_MS = 180_000;

/** The prompt the stand-in priced for the newest turn request: what OpenCode's call was sent. */
function lastTurnPrompt(chat: FakeChat): number {
  const turns = chat.requests.filter((request) => request.kind === 'turn');
  const last = turns[turns.length - 1];
  assert.ok(last);
  return last.prompt;
}

describe('OpenCode live, with the real CLI', { timeout: 480_000 }, () => {
  let root: string;
  let workspace: string;
  let chat: FakeChat;
  let binary: string;

  before(async () => {
    binary = ensureOpencodeCli();
    root = mkdtempSync(join(tmpdir(), 'cl-opencode-live-'));
    workspace = join(root, 'workspace');
    mkdirSync(workspace);
    chat = await startFakeChat({
      steps: [
        { text: 'Hello there.' },
        { toolCalls: [{ name: 'bash', arguments: { command: 'echo hi', description: 'Say hi' } }] },
        { text: 'It printed hi.' },
      ],
    });
  });
  after(async () => {
    await chat?.stop();
    rmSync(root, { recursive: true, force: true });
  });

  it('reads the newest rows from the log with the exact fill, and follows the next run', async () => {
    const first = await runOpencode({
      binary,
      root,
      cwd: workspace,
      baseUrl: chat.url,
      timeoutMs: RUN_TIMEOUT_MS,
      args: ['run', '--format', 'json', 'Say hello.'],
    });
    assert.equal(first.code, 0, runOutcome(first));
    const db = opencodeDb(root);
    const where = { homes: { opencode: [db] } } as SessionLocations;
    // OpenCode leaves its newest rows in the log after it exits: a reader of the file alone is behind.
    assert.ok(statSync(`${db}-wal`).size > 0);
    const snapshot = await openStore(db);
    assert.ok(snapshot.ok);
    assert.ok(snapshot.value.walFrames > 0);
    snapshot.value.close();

    const found = await findWorkspaceSession(opencodeAdapter, workspace, where);
    assert.ok(found.ok && found.value, JSON.stringify(found));
    const session = found.value;
    const live = await opencodeAdapter.readLiveContext(session);
    assert.ok(live.ok);
    assert.equal(live.value.fill.usedTokens, lastTurnPrompt(chat));
    assert.equal(live.value.fill.source, 'usage');
    // The same from the shipped command, every runtime cold and warm, while the rows are only in the log.
    await eachShippedPass(async (pass) => {
      const run = await pass.run(['inspect', session.id, '--agent', 'opencode', '--opencode-db', db, '--json'], { cwd: workspace });
      assert.equal(run.code, 0, runOutcome(run));
      const inspected = JSON.parse(run.stdout) as { used: { tokens: number; source: string } };
      assert.equal(inspected.used.tokens, lastTurnPrompt(chat));
      assert.equal(inspected.used.source, 'usage');
    });
    assert.ok(statSync(`${db}-wal`).size > 0, 'inspect read the log, it did not checkpoint it');

    const follower = await opencodeAdapter.follow(session);
    const changes: ContextChange[] = [];
    follower.on('contextChanged', (change) => changes.push(change));
    await follower.start();
    try {
      const second = await runOpencode({
        binary,
        root,
        cwd: workspace,
        baseUrl: chat.url,
        timeoutMs: RUN_TIMEOUT_MS,
        args: ['run', '--format', 'json', '--session', session.id, 'Run echo hi.'],
      });
      assert.equal(second.code, 0, runOutcome(second));
      // The poll (2 s) or fs.watch has seen the last write by now or within one more poll.
      const deadline = Date.now() + 10_000;
      while (changes[changes.length - 1]?.fill.usedTokens !== lastTurnPrompt(chat) && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 100));
      assert.equal(changes[0]?.reason, 'initial');
      assert.equal(changes[changes.length - 1]?.fill.usedTokens, lastTurnPrompt(chat));
      assert.ok(changes.some((change) => change.reason === 'append'));
    } finally {
      follower.dispose();
    }
    const after = await opencodeAdapter.readLiveContext(session);
    assert.ok(after.ok);
    assert.deepEqual(
      after.value.messages.flatMap((message) => message.content.filter((block) => block.type === 'tool_use').map((block) => block.name)),
      ['bash'],
    );
    assert.deepEqual(
      readdirSync(root)
        .filter((name) => name.startsWith('opencode.db'))
        .sort(),
      ['opencode.db', 'opencode.db-shm', 'opencode.db-wal'],
    );
    assert.deepEqual(chat.errors, []);
  });
});
