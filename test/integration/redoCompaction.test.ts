// Issue 39, item 2, on the shipped CLI: the audit of Claude Code's own /compact (recorded offline with
// the real CLI, its summary dropping one standing rule and one decision) from `ctxlens inspect --json`
// in every pass of shippedCli.ts, and Redo with Context Lens: `ctxlens compact --redo last
// --write-session` writes our compaction of the context as it stood before Claude Code's as a new
// session, which the real Claude Code CLI resumes, sending what the agent's summary had dropped.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runOutcome } from '../support/cliRun';
import { ensureClaudeCli, printArgs, projectDir, runClaude } from '../support/claudeCli';
import { type FakeAnthropic, reply, startFakeAnthropic, text } from '../support/fake-anthropic';
import { eachShippedPass, runShippedOnce } from '../support/shippedCli';

const FIXTURE = join(__dirname, '..', 'fixtures', 'claude-code', 'compact-audit', 'projects', '-home-user-payments-audit');
const DROPPED = ['decision: We decided to keep the HttpError class unchanged.', 'rule: Always run npm test before you report that a change works.'];
/** The prompt after Claude Code's compaction: not part of the context Redo compacts. */
const AFTER = 'Now also stop retrying client errors (4xx).';

describe("the audit of Claude Code's own compaction and Redo with Context Lens, on the shipped CLI", () => {
  const root = mkdtempSync(join(tmpdir(), 'cl-redo-'));
  const configDir = join(root, 'config');
  const cwd = join(root, 'payments-audit');
  let source: string;
  let binary: string;
  let server: FakeAnthropic;

  before(async () => {
    mkdirSync(cwd, { recursive: true });
    const file = readdirSync(FIXTURE).find((name) => name.endsWith('.jsonl'));
    assert.ok(file);
    const target = projectDir(configDir, cwd);
    mkdirSync(target, { recursive: true });
    source = join(target, file);
    writeFileSync(source, readFileSync(join(FIXTURE, file), 'utf8').split('/home/user/payments-audit').join(cwd));
    binary = ensureClaudeCli();
    server = await startFakeAnthropic({
      scenario: { turns: [() => reply(text('Resumed from the redo.'))], fallback: () => reply(text('Resumed from the redo.')) },
    });
  });

  after(async () => {
    await server?.stop();
    rmSync(root, { recursive: true, force: true });
  });

  it('inspect --json lists exactly the rule and the decision the summary dropped, on every runtime, cold and warm', { timeout: 120_000 }, async () => {
    await eachShippedPass(async (pass) => {
      const run = await pass.run(['inspect', source, '--json'], { cwd });
      assert.equal(run.code, 0, runOutcome(run));
      const { compactions } = JSON.parse(run.stdout) as {
        compactions: { by: string; audit?: { carried: { kind: string; text: string }[]; dropped: { kind: string; text: string }[] } }[];
      };
      assert.equal(compactions.length, 1);
      const audit = compactions[0]?.audit;
      assert.ok(audit);
      assert.deepEqual(audit.dropped.map((entry) => `${entry.kind}: ${entry.text}`).sort(), DROPPED);
      assert.equal(audit.carried.length, 3);
    });
  });

  it(
    "compact --redo last --write-session writes a fork of the context before the agent's compaction, which Claude Code resumes",
    { timeout: 120_000 },
    async () => {
      const hash = createHash('sha256').update(readFileSync(source)).digest('hex');
      const run = await runShippedOnce(['compact', source, '--redo', 'last', '--write-session', '--json', '--archive-dir', join(root, 'archive')], { cwd });
      assert.equal(run.code, 0, runOutcome(run));
      const result = JSON.parse(run.stdout) as { status: string; message: string; fork?: { sessionId: string } };
      assert.equal(result.status, 'compacted', result.message);
      assert.ok(result.fork);
      assert.equal(createHash('sha256').update(readFileSync(source)).digest('hex'), hash, 'the source transcript must not change');
      const resumed = await runClaude({
        binary,
        args: printArgs({ prompt: 'Carry on.', resume: result.fork.sessionId }),
        cwd,
        configDir,
        baseUrl: server.url,
        timeoutMs: 80_000,
      });
      assert.equal(resumed.code, 0, resumed.stderr);
      assert.equal(resumed.stdout.trim(), 'Resumed from the redo.');
      const main = server.requests.filter((request) => request.kind === 'main');
      assert.equal(main.length, 1);
      const sent = JSON.stringify((main[0]?.body as { messages: unknown }).messages);
      assert.ok(sent.includes('Always run npm test before you report that a change works.'), 'the rule the agent dropped is sent');
      assert.ok(sent.includes('We decided to keep the HttpError class unchanged.'), 'the decision the agent dropped is sent');
      assert.ok(!sent.includes(AFTER), "the redo compacts the context as it stood before the agent's compaction");
    },
  );
});
