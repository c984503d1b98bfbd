// Proof that Connect steers Gemini CLI's own compression: the shipped `ctxlens connect --agent
// gemini --workspace DIR` adds a BeforeAgent hook to the project's `.gemini/settings.json`, the real
// Gemini CLI (0.61.0, offline against the Gemini API stand-in) compresses the chat by itself at a
// low `model.compressionThreshold`, and the first request after the compression carries every rule
// and open loop the person typed (test/fixtures/phrasings). The same run in a folder not connected
// loses them: the stand-in's <state_snapshot> names none and the compression keeps none of the early
// prompts. Only the compressing turn pays for the block; Disconnect gives the settings back byte for byte.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runOutcome } from '../support/cliRun';
import { contentText, type FakeGemini, type GeminiRequest, type LoggedRequest, reply, startFakeGemini, text } from '../support/fake-gemini';
import { ensureGeminiCli, promptArgs, runGemini, sessionIdOfRun, writeGeminiSettings } from '../support/geminiCli';
import { pinnedSessionPrompts, PINNED_WORDS } from '../support/pinnedPhrasings';
import { runShippedOnce } from '../support/shippedCli';

const PROMPTS = pinnedSessionPrompts(1600);
const RUN_TIMEOUT_MS = 60_000;
const SUMMARY = '<state_snapshot>\n<overall_goal>Work on the sync feature.</overall_goal>\n</state_snapshot>';
/** 2 % of the 1,048,576-token limit: the pasted log (~28k tokens) passes it. */
const THRESHOLD = 0.02;
const BLOCK_HEAD = 'Written by the user before this conversation was compacted';

const texts = (request: LoggedRequest): string => (request.body as GeminiRequest).contents.map((content) => contentText(content)).join('\n');

describe('Gemini CLI connected by ctxlens connect --agent gemini: its own compression keeps the person’s words', { timeout: 170_000 }, () => {
  let root: string;
  let server: FakeGemini;
  let entry: string;

  before(async () => {
    entry = ensureGeminiCli();
    root = mkdtempSync(join(tmpdir(), 'cl-connect-gemini-'));
    server = await startFakeGemini({ scenario: { prompts: [], fallback: () => reply(text('Noted.')), summary: () => SUMMARY } });
  });
  after(async () => {
    await server?.stop();
    rmSync(root, { recursive: true, force: true });
  });

  /** The four prompts in `cwd`, one session: every main-model request, and the first one after the compression. */
  async function session(name: string, env: Record<string, string>): Promise<{ turns: LoggedRequest[]; next: LoggedRequest }> {
    const cwd = join(root, name);
    const home = join(root, `${name}-home`);
    mkdirSync(cwd, { recursive: true });
    writeGeminiSettings(home, { extra: { model: { compressionThreshold: THRESHOLD } } });
    const from = server.requests.length;
    let id: string | undefined;
    for (const prompt of PROMPTS) {
      const run = await runGemini({ entry, home, cwd, baseUrl: server.url, args: promptArgs(prompt, id), env, timeoutMs: RUN_TIMEOUT_MS });
      assert.equal(run.code, 0, run.stderr.slice(-3000));
      id ??= sessionIdOfRun(run.stdout);
    }
    const requests = server.requests.slice(from);
    const compression = requests.find((request) => request.kind === 'compression');
    assert.ok(compression, `Gemini CLI did not compress (${requests.map((request) => request.kind).join(', ')})`);
    const turns = requests.filter((request) => request.kind === 'turn');
    const next = turns.find((request) => request.seq > compression.seq);
    assert.ok(next, 'no request after the compression');
    return { turns, next };
  }

  it('carries every rule and open loop into the first request after Gemini compresses, on that turn only; without Connect they are gone; disconnect restores the file', async () => {
    const state = join(root, 'state');
    const env = { XDG_STATE_HOME: state };
    const bare = await session('bare', env);
    assert.deepEqual(
      PINNED_WORDS.filter((words) => !texts(bare.next).includes(words)),
      PINNED_WORDS,
      'without Connect, the compression loses them all',
    );

    const cwd = join(root, 'connected');
    mkdirSync(join(cwd, '.gemini'), { recursive: true });
    const own =
      '{\n  // mine\n  "ui": { "theme": "GitHub" },\n  "hooks": {\n    "AfterAgent": [{ "hooks": [{ "type": "command", "command": "true" }] }]\n  }\n}\n';
    writeFileSync(join(cwd, '.gemini', 'settings.json'), own);
    const shippedEnv = { ...process.env, ...env };
    const connected = await runShippedOnce(['connect', '--agent', 'gemini', '--workspace', cwd], { cwd, env: shippedEnv });
    assert.equal(connected.code, 0, runOutcome(connected));

    const { turns, next } = await session('connected', env);
    const sent = texts(next);
    for (const words of PINNED_WORDS) assert.ok(sent.includes(words), `the request after the compression lacks "${words}"\n${sent.slice(0, 3000)}`);
    assert.ok(sent.includes(`<hook_context>${BLOCK_HEAD}`), 'the block came from the BeforeAgent hook');
    // Pay only when it matters: no turn before the compressing one carried the block.
    const before = turns.filter((request) => request.seq < next.seq);
    assert.deepEqual(
      before.filter((request) => texts(request).includes(BLOCK_HEAD)).map((request) => request.seq),
      [],
    );

    const events = readFileSync(join(state, 'context-lens', 'hook-events.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const gemini = events.filter((event) => event.agent === 'gemini');
    assert.deepEqual(
      gemini.map((event) => event.printed),
      [false, false, false, true],
      JSON.stringify(gemini),
    );
    assert.equal(gemini.at(-1)?.trigger, 'compression due');

    const disconnected = await runShippedOnce(['disconnect', '--agent', 'gemini', '--workspace', cwd], { cwd, env: shippedEnv });
    assert.equal(disconnected.code, 0, runOutcome(disconnected));
    assert.equal(readFileSync(join(cwd, '.gemini', 'settings.json'), 'utf8'), own);
  });
});
