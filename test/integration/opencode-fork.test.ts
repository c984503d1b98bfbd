// Proof that a fork Context Lens writes is a session OpenCode itself resumes: the real OpenCode CLI
// records a session against the chat-completions stand-in, the engine compacts it (the file read
// dropped), the adapter writes the fork through `opencode import`, and `opencode run --session
// <fork>` sends our summary, the standing rule and the open loop, not the dropped output. The
// source session's rows stay as they were.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { MemoryArchive } from '../../src/engine/archive';
import { compact } from '../../src/engine/compact';
import { adapterOf } from '../../src/sessions/agents';
import { engineContextOf } from '../../src/sessions/engineContext';
import { withSnapshot } from '../../src/sessions/opencode/snapshot';
import type { SessionLocations } from '../../src/sessions/port';
import { ok } from '../../src/sessions/result';
import { startFakeChat, type FakeChat } from '../support/fake-openai-chat';
import { ensureOpencodeCli, opencodeDb, opencodeEnv, runOpencode } from '../support/opencode-cli';
import { runOutcome } from '../support/cliRun';

const SECRET_LINE = 'DROPPED-OUTPUT-MARKER the release is on friday';
const RULE = 'Never touch the vendor folder.';
const LOOP = 'Remind me to update the changelog before we release.';
const FIRST_PROMPT = `Read notes.md. ${RULE} ${LOOP}`;
const RUN_TIMEOUT_MS = 180_000;


/** The source session's rows, to compare before and after. */
async function rowsOf(db: string, sessionId: string): Promise<string> {
  const read = await withSnapshot(db, (snapshot) => {
    const messages = snapshot.rows('SELECT id, data FROM message WHERE session_id = ? ORDER BY id', [sessionId]);
    const parts = snapshot.rows('SELECT id, data FROM part WHERE session_id = ? ORDER BY id', [sessionId]);
    return ok(JSON.stringify([messages, parts]));
  });
  assert.ok(read.ok);
  return read.value;
}

describe('an OpenCode fork resumed by the real OpenCode CLI', { timeout: 600_000 }, () => {
  let root: string;
  let chat: FakeChat;
  let binary: string;
  const savedEnv = { ...process.env };

  before(async () => {
    binary = ensureOpencodeCli();
    root = mkdtempSync(join(tmpdir(), 'cl-opencode-fork-'));
    chat = await startFakeChat({
      steps: [{ toolCalls: [{ name: 'read', arguments: { filePath: 'notes.md' } }] }, { text: 'Noted. I will leave vendor/ alone.' }, { text: 'Next: the changelog.' }],
    });
  });
  after(async () => {
    process.env = savedEnv;
    await chat?.stop();
    rmSync(root, { recursive: true, force: true });
  });

  it('imports our compaction and resumes it with the summary, the rule and the open loop; the source is unchanged', async () => {
    const workspace = join(root, 'workspace');
    mkdirSync(workspace);
    writeFileSync(join(workspace, 'notes.md'), `${SECRET_LINE}\n`);
    const first = await runOpencode({ binary, root, cwd: workspace, baseUrl: chat.url, timeoutMs: RUN_TIMEOUT_MS, args: ['run', '--format', 'json', FIRST_PROMPT] });
    assert.equal(first.code, 0, runOutcome(first));
    const db = opencodeDb(root);

    const adapter = adapterOf('opencode' as never);
    assert.equal(adapter.command, 'opencode');
    const found = await adapter.findWorkspaceSession(workspace, { homes: { opencode: [db] } } as SessionLocations);
    assert.ok(found.ok && found.value);
    const source = found.value;
    const sourceRows = await rowsOf(db, source.id);
    const live = await adapter.readLiveContext(source);
    assert.ok(live.ok);
    const context = engineContextOf(live.value);
    const output = context.items.findIndex((item) => item.kind === 'tool_result');
    assert.ok(output >= 0, 'one read result');
    const result = await compact(context, { trigger: 'manual', choices: { keep: [], drop: [output] } }, { archive: new MemoryArchive() });
    assert.equal(result.status, 'compacted');

    // Apply runs `opencode import` as the person would: their PATH and environment (here the test's offline one).
    process.env = { ...savedEnv, ...opencodeEnv({ root, baseUrl: chat.url }), PATH: `${dirname(binary)}${delimiter}${savedEnv.PATH ?? ''}` };
    const fork = await adapter.writeFork({ live: live.value, context, result, title: 'notes (compacted)' });
    assert.ok(fork.ok, fork.ok ? '' : fork.error.message);
    assert.equal(fork.value.resumeCommand, `opencode --session ${fork.value.sessionId}`);
    const forked = await adapter.readSessionInfo(fork.value.path);
    assert.ok(forked.ok);
    const written = await adapter.readLiveContext(forked.value);
    assert.ok(written.ok);
    const summary = written.value.compactions[0]?.summary ?? '';
    assert.ok(summary.length > 0, 'the fork carries our summary');
    assert.ok(!summary.includes(SECRET_LINE));

    const before = chat.requests.length;
    const resumed = await runOpencode({ binary, root, cwd: workspace, baseUrl: chat.url, timeoutMs: RUN_TIMEOUT_MS, args: ['run', '--format', 'json', '--session', fork.value.sessionId, 'What is next?'] });
    assert.equal(resumed.code, 0, runOutcome(resumed));
    assert.deepEqual(chat.errors, []);
    const sent = chat.requests.slice(before).filter((request) => request.kind === 'turn');
    assert.equal(sent.length, 1);
    const text = JSON.stringify(sent[0]?.body.messages.filter((message) => message.role !== 'system'));
    assert.ok(text.includes(JSON.stringify(summary.split('\n').find((line) => line.trim().length > 20) ?? summary).slice(1, -1)), 'our summary reached the model');
    assert.ok(text.includes('vendor folder'), 'the standing rule reached the model');
    assert.ok(text.includes('changelog'), 'the open loop reached the model');
    assert.ok(!text.includes(SECRET_LINE), 'the dropped output was not sent');

    assert.equal(await rowsOf(db, source.id), sourceRows, "the source session's rows are unchanged");
  });
});
