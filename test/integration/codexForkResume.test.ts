// Proof that a fork Context Lens writes is a session Codex itself resumes: the real Codex CLI
// records a short session against the Responses API stand-in, the shipped `ctxlens` forks it with
// `compact --drop N --write-session` in every pass of shippedCli.ts (the file read dropped, our
// summary in its place), and `codex exec resume <fork id>` sends our summary and the kept
// items, none of what was dropped, then appends its turn to the fork. The source stays untouched.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { readCodexLiveContext } from '../../src/sessions/codex/liveContext';
import { runOutcome } from '../support/cliRun';
import { ensureCodexCli, execArgs, rolloutFiles, runCodex, writeCodexConfig } from '../support/codexCli';
import { exec, type FakeOpenAI, itemText, message, reply, startFakeOpenAI } from '../support/fake-openai';
import { eachShippedPass, type CompactedJson, type InspectedJson } from '../support/shippedCli';

/** The file's content: only in the dropped tool output, so it must not be sent after the fork. */
const SECRET_LINE = 'DROPPED-OUTPUT-MARKER release on friday';
const FIRST_PROMPT = 'Read notes.txt and remember it.';
const SECOND_PROMPT = 'What did the notes say?';

/** Codex's own compaction item: opaque (encrypted) to everyone but Codex's server, kept verbatim by the fork. */
const ENCRYPTED = { type: 'compaction', encrypted_content: Buffer.from('ENCRYPTED-COMPACTION-MARKER '.repeat(40)).toString('base64') };

const sha256 = (path: string): string => createHash('sha256').update(readFileSync(path)).digest('hex');

describe('a Codex fork written by ctxlens, resumed by the real Codex CLI', { timeout: 240_000 }, () => {
  let root: string;
  let server: FakeOpenAI;
  let binary: string;

  before(async () => {
    binary = ensureCodexCli();
    root = mkdtempSync(join(tmpdir(), 'cl-codex-fork-'));
    server = await startFakeOpenAI({
      scenario: {
        prompts: [
          { prompt: FIRST_PROMPT, steps: [() => reply(exec('cat notes.txt')), () => reply(message('Noted: the release is on Friday.'))] },
          { prompt: SECOND_PROMPT, steps: [() => reply(message('They said the release is on Friday.'))] },
        ],
      },
    });
  });

  after(async () => {
    await server.stop();
    rmSync(root, { recursive: true, force: true });
  });

  it('ctxlens compact --drop --write-session forks it on every runtime cold and warm: the real CLI sends our summary and the kept items, not the dropped output, and appends to the fork', async () => {
    const codexHome = join(root, 'codex');
    const cwd = join(root, 'project');
    mkdirSync(cwd, { recursive: true });
    writeFileSync(join(cwd, 'notes.txt'), `${SECRET_LINE}\n`);
    writeCodexConfig(codexHome, { baseUrl: server.url });

    const first = await runCodex({ binary, codexHome, cwd, args: execArgs({ prompt: FIRST_PROMPT, cd: cwd }) });
    assert.equal(first.code, 0, first.stderr);
    const [source] = rolloutFiles(codexHome);
    assert.ok(source, 'Codex wrote a rollout');

    // Codex 0.117+ compacts remotely into an encrypted `compaction` item; the pinned CLI cannot make
    // one offline against the stand-in, so one is appended by hand in its documented shape (a
    // `compacted` record whose replacement_history is the history so far and it, codex-rs protocol ResponseItem::Compaction).
    const history = readFileSync(source, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; payload: { type?: string; role?: string } });
    const kept = history.filter((record) => record.type === 'response_item').map((record) => record.payload);
    writeFileSync(
      source,
      `${readFileSync(source, 'utf8')}${JSON.stringify({ timestamp: new Date().toISOString(), type: 'compacted', payload: { message: '', replacement_history: [...kept, ENCRYPTED] } })}\n`,
    );
    const sourceHash = sha256(source);

    // What Apply does, through the shipped command in every pass: the person drops the tool output
    // (which takes its call along) and writes the fork; the fork is read back.
    const session = await readCodexLiveContext(source);
    assert.ok(session.ok, session.ok ? '' : session.error.message);
    const env = { ...process.env, CODEX_HOME: codexHome };
    const forks: Array<{ sessionId: string; path: string; summary: string }> = [];
    await eachShippedPass(async (pass) => {
      const ctxlens = async <T>(args: readonly string[]): Promise<T> => {
        const run = await pass.run(args, { cwd, env });
        assert.equal(run.code, 0, `ctxlens ${args.join(' ')}\n${runOutcome(run)}`);
        return JSON.parse(run.stdout) as T;
      };
      const live = await ctxlens<InspectedJson>(['inspect', source, '--json']);
      const output = live.regions.find((region) => region.kind === 'tool_result');
      assert.ok(output, 'one exec_command output');
      const compacted = await ctxlens<CompactedJson>([
        'compact',
        source,
        '--agent',
        'codex',
        '--drop',
        String(output.id),
        '--write-session',
        '--json',
        '--archive-dir',
        join(root, 'archive'),
      ]);
      assert.equal(compacted.status, 'compacted', compacted.message);
      assert.ok(compacted.fork, 'the fork was written');
      assert.equal(compacted.fork.resumeCommand, `codex resume ${compacted.fork.sessionId}`);
      const written = await ctxlens<InspectedJson>(['inspect', compacted.fork.path, '--json']);
      const summary = written.compactions[0]?.summary ?? '';
      assert.ok(summary.length > 0, 'the fork carries our summary');
      assert.ok(!summary.includes(SECRET_LINE), 'the summary does not repeat the dropped output');
      forks.push({ ...compacted.fork, summary });
    });
    assert.equal(new Set(forks.map((fork) => fork.path)).size, 4, 'four forks, one a pass');
    assert.equal(sha256(source), sourceHash, 'the source rollout is untouched');

    // Codex resumes a fork: the last one written, from a warm cache.
    const fork = { value: forks.at(-1) ?? { sessionId: '', path: '', summary: '' } };
    const SUMMARY = fork.value.summary;

    const before = server.requests.length;
    const resumed = await runCodex({ binary, codexHome, cwd, args: execArgs({ prompt: SECOND_PROMPT, resume: fork.value.sessionId }) });
    assert.equal(resumed.code, 0, resumed.stderr);
    assert.deepEqual(server.errors, []);
    const sent = server.requests.slice(before).filter((request) => request.kind === 'turn');
    assert.equal(sent.length, 1, 'one model call for the resumed turn');
    const input = (sent[0]?.body as { input: { type: string; role?: string }[] }).input;
    const texts = input.map((item) => (item.type === 'message' ? itemText(item) : JSON.stringify(item)));
    assert.ok(
      texts.some((text) => text.includes(SUMMARY)),
      'our summary reached the model',
    );
    assert.ok(
      texts.some((text) => text.includes(FIRST_PROMPT)),
      'the kept first prompt reached the model',
    );
    assert.equal(texts.at(-1), SECOND_PROMPT, 'the new prompt comes last');
    assert.ok(!texts.some((text) => text.includes(SECRET_LINE)), 'the dropped tool output was not sent');
    assert.deepEqual(
      input.filter((item) => item.type === 'compaction'),
      [ENCRYPTED],
      "Codex's own compaction item was sent verbatim",
    );
    assert.ok(!input.some((item) => item.type === 'function_call' || item.type === 'function_call_output'), 'the dropped call was not sent');

    assert.equal(sha256(source), sourceHash, 'the source rollout is untouched');
    const after = await readCodexLiveContext(fork.value.path);
    assert.ok(after.ok, after.ok ? '' : after.error.message);
    assert.equal(after.value.compactions.length, 1);
    assert.equal(after.value.compactions[0]?.by, 'context-lens');
    assert.equal(after.value.compactions[0]?.summary, SUMMARY);
    assert.equal(after.value.session.forkOf?.title, session.value.session.title, "the source's title, not the fork's");
    assert.equal(after.value.fill.source, 'usage', 'Codex appended the resumed turn with its usage');
    const lastMessage = after.value.messages.at(-1);
    assert.equal(lastMessage?.role, 'assistant');
    assert.equal(lastMessage?.content[0]?.text, 'They said the release is on Friday.');
  });
});
