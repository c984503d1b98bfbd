// Proof that a fork Context Lens writes is a session the Gemini CLI itself resumes: the real CLI
// (0.61, offline, against the Gemini API stand-in, in a private HOME) records a three-prompt
// session, the shipped `ctxlens compact --agent gemini --write-session` compacts it (the first turns
// summarised) and writes the fork in every pass of shippedCli.ts (each runtime, cold and warm), and `gemini -r <fork id> -p continue` sends our summary, the standing rule the person typed and the
// open loop they left, but not the dropped file content. The source files stay byte for byte, and
// the fork survives the CLI's retention cleanup, which deletes chats by short id.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { SUMMARY_PREAMBLE } from '../../src/sessions/common/forkTexts';
import { readGeminiLiveContext } from '../../src/sessions/gemini/liveContext';
import { runOutcome } from '../support/cliRun';
import { call, contentText, type FakeGemini, type GeminiRequest, reply, requestText, startFakeGemini, text } from '../support/fake-gemini';
import { chatFiles, ensureGeminiCli, promptArgs, runGemini, sessionIdOfRun, writeGeminiSettings } from '../support/geminiCli';
import { eachShippedPass } from '../support/shippedCli';

const RULE = 'Standing rule: amounts are integers in cents, never floats.';
const OPEN_LOOP = 'TODO later: partial refunds are not handled yet.';
/** Only in the file the first turn reads, which the compaction summarises: it must not be sent after the fork. */
const SECRET = 'DROPPED-OUTPUT-MARKER the auditor visits on friday';
const PROMPTS = [`${RULE} Read ledger.md and tell me how entries are written.`, `Add a refund entry to ledger.md. ${OPEN_LOOP}`, 'What is left to do?'];
const LEDGER = [
  '# Ledger',
  SECRET,
  ...Array.from({ length: 60 }, (_, index) => `- entry ${index + 1}: 1250 cents paid by customer ${index + 1}, settled the same day`),
].join('\n');

const sha256 = (path: string): string => createHash('sha256').update(readFileSync(path)).digest('hex');

describe('a Gemini fork written by ctxlens, resumed by the real Gemini CLI', { timeout: 240_000 }, () => {
  let root: string;
  let server: FakeGemini;
  let entry: string;

  before(async () => {
    entry = ensureGeminiCli();
    root = mkdtempSync(join(tmpdir(), 'cl-gemini-fork-'));
    server = await startFakeGemini({
      scenario: {
        prompts: [
          {
            prompt: 'Read ledger.md',
            steps: [() => reply(call('read_file', { file_path: 'ledger.md' })), () => reply(text('Each entry is one line: an amount in cents and who paid.'))],
          },
          {
            prompt: 'Add a refund entry',
            steps: [
              () => reply(call('write_file', { file_path: 'refunds.md', content: '- refund 1: -1250 cents to customer 1\n' })),
              () => reply(text('Added refunds.md; partial refunds remain open.')),
            ],
          },
          { prompt: 'What is left to do?', steps: [() => reply(text('Partial refunds.'))] },
          { prompt: /^continue$/, steps: [() => reply(text('Continuing with partial refunds.'))] },
          { prompt: 'hello', steps: [() => reply(text('Hello.'))] },
        ],
      },
    });
  });

  after(async () => {
    await server.stop();
    rmSync(root, { recursive: true, force: true });
  });

  it('sends our summary, the rule and the open loop, not the dropped output; leaves the source alone; survives the retention cleanup', async () => {
    const home = join(root, 'home');
    const cwd = join(home, 'ledger');
    mkdirSync(cwd, { recursive: true });
    writeFileSync(join(cwd, 'ledger.md'), `${LEDGER}\n`);
    writeGeminiSettings(home);
    const run = (prompt: string, resume?: string) => runGemini({ entry, args: promptArgs(prompt, resume), cwd, home, baseUrl: server.url, timeoutMs: 90_000 });

    let sessionId: string | undefined;
    for (const prompt of PROMPTS) {
      const done = await run(prompt, sessionId);
      assert.equal(done.code, 0, `${done.stdout}\n${done.stderr}`);
      sessionId = sessionIdOfRun(done.stdout);
    }
    assert.deepEqual(server.errors, []);
    assert.ok(sessionId !== undefined);
    const sources = chatFiles(home);
    const source = sources.find((path) => basename(path).endsWith(`-${sessionId.slice(0, 8)}.jsonl`));
    assert.ok(source !== undefined, 'the CLI wrote the session');
    const hashes = new Map(sources.map((path) => [path, sha256(path)]));

    // What Apply does, through the shipped command line: compact it as far down as it goes (the
    // earlier turns summarised, the archive written first) and write the fork.
    const live = await readGeminiLiveContext(source);
    assert.ok(live.ok, live.ok ? '' : live.error.message);
    assert.ok(JSON.stringify(live.value.messages).includes(SECRET), 'the source holds the text the fork drops');
    const forks: Array<{ sessionId: string; path: string; resumeCommand: string }> = [];
    await eachShippedPass(async (pass) => {
      const run = await pass.run(
        ['compact', source, '--agent', 'gemini', '--target-tokens', '1', '--write-session', '--json', '--archive-dir', join(root, 'archive')],
        { cwd, env: { ...process.env, HOME: home } },
      );
      assert.equal(run.code, 0, runOutcome(run));
      const compacted = JSON.parse(run.stdout) as { status: string; message: string; fork?: { sessionId: string; path: string; resumeCommand: string } };
      assert.equal(compacted.status, 'compacted', compacted.message);
      assert.ok(compacted.fork !== undefined, 'the fork was written');
      assert.equal(compacted.fork.resumeCommand, `gemini -r ${compacted.fork.sessionId}`);
      forks.push(compacted.fork);
    });
    assert.equal(new Set(forks.map((fork) => fork.path)).size, 4, 'four forks, one a pass');
    for (const [path, hash] of hashes) assert.equal(sha256(path), hash, `${basename(path)} is untouched`);
    // The Gemini CLI resumes a fork: the last one written, from a warm cache.
    const fork = { value: forks.at(-1) ?? { sessionId: '', path: '', resumeCommand: '' } };
    const header = JSON.parse(readFileSync(fork.value.path, 'utf8').split('\n')[0] ?? '{}') as { contextLens: { summary: string } };
    const summary = header.contextLens.summary;
    assert.ok(summary.length > 0 && !summary.includes(SECRET), 'a summary without the dropped output');

    const from = server.requests.length;
    const resumed = await run('continue', fork.value.sessionId);
    assert.equal(resumed.code, 0, `${resumed.stdout}\n${resumed.stderr}`);
    assert.equal(sessionIdOfRun(resumed.stdout), fork.value.sessionId, 'the CLI continued the fork');
    assert.deepEqual(server.errors, []);
    const turns = server.requests.slice(from).filter((request) => request.kind === 'turn');
    assert.equal(turns.length, 1, 'one model call for the resumed turn');
    const body = turns[0]?.body as GeminiRequest;
    const sent = requestText(body);
    assert.ok(sent.includes(`${SUMMARY_PREAMBLE}\n\n${summary}`), 'our summary reached the model');
    assert.ok(sent.includes(RULE), 'the standing rule the person typed reached the model');
    assert.ok(sent.includes(OPEN_LOOP), 'the open loop reached the model');
    assert.ok(!JSON.stringify(body.contents).includes(SECRET), 'the dropped file content was not sent');
    assert.equal(contentText(body.contents.at(-1)), 'continue', 'the new prompt comes last');
    for (const [path, hash] of hashes) assert.equal(sha256(path), hash, `${basename(path)} is untouched`);

    // The CLI's retention cleanup deletes expired or unresumable chats and every file sharing their short id.
    // The resume left a stub named after the fork's session id (a header and the session context
    // only); the cleanup deletes it and every file sharing its short id, which the fork's name does not.
    const stub = `-${fork.value.sessionId.slice(0, 8)}.jsonl`;
    assert.ok(
      chatFiles(home).some((path) => path.endsWith(stub)),
      'the resume left its stub',
    );
    writeGeminiSettings(home, { retention: true });
    const listing = (): string =>
      chatFiles(home)
        .map((path) => `${basename(path)} (session ${readFileSync(path, 'utf8').slice(14, 22)}): ${readFileSync(path, 'utf8').split('\n').length} lines`)
        .join('; ');
    const beforeCleanup = listing();
    // The CLI starts its cleanup without waiting for it and may exit before it is done (seen on a
    // loaded machine: one group deleted, the next not yet), so a new run continues it.
    for (let runs = 0; runs < 3 && chatFiles(home).some((path) => path.endsWith(stub)); runs++) {
      const fresh = await run('hello');
      assert.equal(fresh.code, 0, `${fresh.stdout}\n${fresh.stderr}`);
    }
    assert.ok(!chatFiles(home).some((path) => path.endsWith(stub)), `the cleanup ran and deleted the stub (before: ${beforeCleanup}; after: ${listing()})`);
    for (const written of forks) assert.ok(existsSync(written.path), `the fork survives the retention cleanup (before: ${beforeCleanup}; after: ${listing()})`);
    const again = await run('continue', fork.value.sessionId);
    assert.equal(again.code, 0, `the fork still resumes after the cleanup\n${again.stderr}`);
  });
});
