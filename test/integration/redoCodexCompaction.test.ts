// Issue 39 for Codex, on the shipped CLI: the audit of Codex's own compaction (recorded offline with
// the real CLI 0.169.0, test/fixtures/codex/compact-audit: its summary drops one standing rule and
// one decision, and the pasted log left no room for the first prompt) from `ctxlens inspect --json`
// in every pass of shippedCli.ts, and Redo with Context Lens: `ctxlens compact --redo last
// --write-session` writes our compaction of the context as it stood before Codex's as a new rollout,
// which `codex exec resume <id>` takes up, sending what Codex's summary had dropped.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, relative } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runOutcome } from '../support/cliRun';
import { ensureCodexCli, execArgs, rolloutFiles, runCodex, writeCodexConfig } from '../support/codexCli';
import { type FakeOpenAI, itemText, message, reply, startFakeOpenAI } from '../support/fake-openai';
import { eachShippedPass, runShippedOnce } from '../support/shippedCli';

const FIXTURE = join(__dirname, '..', 'fixtures', 'codex', 'compact-audit');
const RECORDED_CWD = '/home/user/payments-audit';
const RULE = 'Always run npm test before you report that a change works.';
const DECISION = 'We decided to keep the HttpError class unchanged.';
/** The prompt after Codex's compaction: not part of the context Redo compacts. */
const AFTER = 'Now also stop retrying client errors (4xx).';
const NEXT = 'Carry on with the retry helper.';

type Audited = { kind: string; text: string };

const sha256 = (path: string): string => createHash('sha256').update(readFileSync(path)).digest('hex');

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? filesUnder(join(dir, entry.name)) : [join(dir, entry.name)]));
}

describe("the audit of Codex's own compaction and Redo with Context Lens, on the shipped CLI", { timeout: 240_000 }, () => {
  const root = mkdtempSync(join(tmpdir(), 'cl-codex-redo-'));
  const codexHome = join(root, 'codex');
  const cwd = join(root, 'payments-audit');
  let source: string;
  let binary: string;
  let server: FakeOpenAI;

  before(async () => {
    binary = ensureCodexCli();
    mkdirSync(cwd, { recursive: true });
    // The recording as a CODEX_HOME of this test's, its working folder this test's folder.
    const sessions = join(FIXTURE, 'sessions');
    for (const path of filesUnder(sessions)) {
      const target = join(codexHome, 'sessions', relative(sessions, path));
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(target, readFileSync(path, 'utf8').split(RECORDED_CWD).join(cwd));
    }
    const [rollout] = rolloutFiles(codexHome);
    assert.ok(rollout);
    source = rollout;
    server = await startFakeOpenAI({ scenario: { prompts: [{ prompt: NEXT, steps: [() => reply(message('Resumed from the redo.'))] }] } });
    writeCodexConfig(codexHome, { baseUrl: server.url });
  });

  after(async () => {
    await server?.stop();
    rmSync(root, { recursive: true, force: true });
  });

  it('inspect --json lists exactly the rule and the decision the summary dropped, on every runtime, cold and warm', async () => {
    await eachShippedPass(async (pass) => {
      const run = await pass.run(['inspect', source, '--json'], { cwd, env: { ...process.env, CODEX_HOME: codexHome } });
      assert.equal(run.code, 0, runOutcome(run));
      const { compactions } = JSON.parse(run.stdout) as { compactions: { by: string; audit?: { carried: Audited[]; dropped: Audited[] } }[] };
      assert.equal(compactions.length, 1);
      assert.equal(compactions[0]?.by, 'agent');
      const audit = compactions[0]?.audit;
      assert.ok(audit, 'the compaction is audited');
      const texts = (entries: Audited[]) => entries.map((entry) => `${entry.kind}: ${entry.text}`).sort();
      assert.deepEqual(texts(audit.dropped), [`decision: ${DECISION}`, `rule: ${RULE}`]);
      assert.deepEqual(texts(audit.carried), [
        "decision: Let's go with exponential backoff for the retry delays.",
        'file: src/retry.js',
        'rule: Never modify config/prod.yaml.',
      ]);
    });
  });

  it("compact --redo last --write-session writes a fork of the context before Codex's compaction, which Codex resumes", async () => {
    const hash = sha256(source);
    const env = { ...process.env, CODEX_HOME: codexHome };
    const run = await runShippedOnce(['compact', source, '--redo', 'last', '--write-session', '--json', '--archive-dir', join(root, 'archive')], { cwd, env });
    assert.equal(run.code, 0, runOutcome(run));
    const result = JSON.parse(run.stdout) as { status: string; message: string; fork?: { sessionId: string; path: string } };
    assert.equal(result.status, 'compacted', result.message);
    assert.ok(result.fork, 'the fork was written');
    assert.equal(sha256(source), hash, 'the source rollout must not change');
    assert.equal(dirname(result.fork.path), dirname(source), 'the fork is written beside the source');

    const resumed = await runCodex({ binary, codexHome, cwd, args: execArgs({ prompt: NEXT, resume: result.fork.sessionId }) });
    assert.equal(resumed.code, 0, resumed.stderr);
    assert.deepEqual(server.errors, []);
    assert.equal(resumed.stdout.trim().split('\n').at(-1), 'Resumed from the redo.');
    const turns = server.requests.filter((request) => request.kind === 'turn');
    assert.equal(turns.length, 1, 'one model call for the resumed turn');
    const input = (turns[0]?.body as { input: { type: string; role?: string }[] }).input;
    const texts = input.map((item) => (item.type === 'message' ? itemText(item) : JSON.stringify(item)));
    assert.ok(
      texts.some((text) => text.includes(RULE)),
      'the rule Codex dropped is sent',
    );
    assert.ok(
      texts.some((text) => text.includes(DECISION)),
      'the decision Codex dropped is sent',
    );
    assert.ok(!texts.some((text) => text.includes(AFTER)), "the redo compacts the context as it stood before Codex's compaction");
    assert.equal(texts.at(-1), NEXT, 'the new prompt comes last');
    assert.equal(sha256(source), hash, 'the source rollout is untouched');

    // The control: Codex resuming its own compacted session sends neither (what the audit said).
    const own = await runCodex({ binary, codexHome, cwd, args: execArgs({ prompt: NEXT, resume: basename(source, '.jsonl').slice(-36) }) });
    assert.equal(own.code, 0, own.stderr);
    const ownTurn = server.requests.filter((request) => request.kind === 'turn')[1];
    assert.ok(ownTurn);
    const ownSent = JSON.stringify((ownTurn.body as { input: unknown }).input);
    assert.ok(ownSent.includes(AFTER), "Codex's own session goes on after its compaction");
    assert.ok(!ownSent.includes(RULE) && !ownSent.includes(DECISION), "Codex's own compaction did drop the rule and the decision");
  });
});
