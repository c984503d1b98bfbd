// Issue 39, Redo with Context Lens for the Gemini CLI: on its own compression recorded with the real
// CLI (compress-audit: the <state_snapshot> dropped the rule to run the linter before a commit and the
// decision to store prices in pence), the shipped `ctxlens compact --redo last --write-session` writes
// our compaction of the chat as it stood before the CLI's as a new chat, and the real Gemini CLI
// 0.61.0 (offline, against the Gemini API stand-in) resumes it: its next request carries what the
// CLI's summary had dropped, and nothing the model said after the CLI's compression. The recorded
// chat stays byte for byte.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runOutcome } from '../support/cliRun';
import { type FakeGemini, type GeminiRequest, reply, requestText, startFakeGemini, text } from '../support/fake-gemini';
import { ensureGeminiCli, promptArgs, runGemini, sessionIdOfRun, writeGeminiSettings } from '../support/geminiCli';
import { runShippedOnce } from '../support/shippedCli';

const FIXTURE = join(__dirname, '..', 'fixtures', 'gemini', 'recorded', 'compress-audit', 'gemini');
const DROPPED = ['Always run the linter before you commit.', 'We decided to store prices in pence.'];
/** The model's answer after the CLI's own compression: not part of the chat Redo compacts. */
const AFTER = 'reserve() now throws when there is not enough stock.';

const sha256 = (path: string): string => createHash('sha256').update(readFileSync(path)).digest('hex');

/** Every file under `folder`, its recorded home (/home/user) made `home`. */
function rehome(folder: string, home: string): void {
  for (const name of readdirSync(folder)) {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) rehome(path, home);
    else writeFileSync(path, readFileSync(path, 'utf8').split('/home/user').join(home));
  }
}

describe("Redo with Context Lens of the Gemini CLI's own compression, resumed by the real CLI", { timeout: 180_000 }, () => {
  let root: string;
  let server: FakeGemini;
  let entry: string;

  before(async () => {
    entry = ensureGeminiCli();
    root = realpathSync(mkdtempSync(join(tmpdir(), 'cl-redo-gemini-')));
    server = await startFakeGemini({ scenario: { prompts: [{ prompt: /^continue$/, steps: [() => reply(text('Resumed from the redo.'))] }] } });
  });
  after(async () => {
    await server?.stop();
    rmSync(root, { recursive: true, force: true });
  });

  it('compact --redo last --write-session writes a chat of the history before the compression; gemini -r sends what the summary dropped', async () => {
    const home = join(root, 'home');
    const cwd = join(home, 'inventory-audit');
    mkdirSync(join(cwd, 'src'), { recursive: true });
    writeFileSync(join(cwd, 'src', 'stock.js'), 'export function reserve() {}\n');
    cpSync(FIXTURE, join(home, '.gemini'), { recursive: true });
    rehome(join(home, '.gemini'), home);
    writeGeminiSettings(home);
    const chats = join(home, '.gemini', 'tmp', 'inventory-audit', 'chats');
    const source = join(chats, readdirSync(chats).find((name) => name.startsWith('session-')) as string);
    const hash = sha256(source);

    const run = await runShippedOnce(
      ['compact', source, '--agent', 'gemini', '--redo', 'last', '--write-session', '--json', '--archive-dir', join(root, 'archive')],
      {
        cwd,
        env: { ...process.env, HOME: home },
      },
    );
    assert.equal(run.code, 0, runOutcome(run));
    const result = JSON.parse(run.stdout) as { status: string; message: string; fork?: { sessionId: string; path: string; resumeCommand: string } };
    assert.equal(result.status, 'compacted', result.message);
    assert.ok(result.fork, 'the fork was written');
    assert.equal(result.fork.resumeCommand, `gemini -r ${result.fork.sessionId}`);
    assert.equal(sha256(source), hash, 'the recorded chat must not change');

    const resumed = await runGemini({ entry, args: promptArgs('continue', result.fork.sessionId), cwd, home, baseUrl: server.url, timeoutMs: 90_000 });
    assert.equal(resumed.code, 0, `${resumed.stdout}\n${resumed.stderr}`);
    assert.equal(sessionIdOfRun(resumed.stdout), result.fork.sessionId, 'the CLI continued the fork');
    assert.deepEqual(server.errors, []);
    const turns = server.requests.filter((request) => request.kind === 'turn');
    assert.equal(turns.length, 1, 'one model call for the resumed turn');
    const sent = requestText(turns[0]?.body as GeminiRequest);
    for (const words of DROPPED) assert.ok(sent.includes(words), `what the CLI's summary dropped is sent: ${words}`);
    assert.ok(!sent.includes(AFTER), "the redo compacts the chat as it stood before the CLI's compression");
    assert.ok(!sent.includes('<state_snapshot>'), "the CLI's own summary is not part of it");
    assert.equal(sha256(source), hash, 'the recorded chat must not change');
  });
});
