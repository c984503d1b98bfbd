// Proof that Connect steers Codex's own compaction: the shipped `ctxlens connect --agent codex
// --workspace DIR` writes the project's `.codex/`, the real Codex CLI (0.169.0, offline against the
// Responses stand-in) compacts the session by itself at a low `model_auto_compact_token_limit`,
// and the first request after it carries every rule and open loop the person typed, in words
// people wrote (test/fixtures/phrasings). The same run in a folder not connected loses them: Codex
// keeps only the newest ~20k tokens of user messages and its summary (the stand-in's) names none.
// Disconnect then gives every file back byte for byte, the person's own hook and settings included.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runOutcome } from '../support/cliRun';
import { ensureCodexCli, execArgs, rolloutFiles, runCodex, writeCodexConfig } from '../support/codexCli';
import { type FakeOpenAI, itemText, type LoggedRequest, message, reply, startFakeOpenAI, type ResponsesRequest } from '../support/fake-openai';
import { pinnedSessionPrompts, PINNED_WORDS } from '../support/pinnedPhrasings';
import { runShippedOnce } from '../support/shippedCli';

const PROMPTS = pinnedSessionPrompts(1600);
const KEPT = PINNED_WORDS;
const RUN_TIMEOUT_MS = 40_000;
const SUMMARY = 'Handoff summary: the user is working on the sync feature. Continue.';

const texts = (request: LoggedRequest): string => (request.body as ResponsesRequest).input.map((item) => itemText(item)).join('\n');

describe('Codex connected by ctxlens connect --agent codex: its own compaction keeps the person’s words', { timeout: 170_000 }, () => {
  let root: string;
  let server: FakeOpenAI;
  let binary: string;

  before(async () => {
    binary = ensureCodexCli();
    root = mkdtempSync(join(tmpdir(), 'cl-connect-codex-'));
    server = await startFakeOpenAI({ scenario: { prompts: [], fallback: () => reply(message('Noted.')), summary: () => SUMMARY } });
  });
  after(async () => {
    await server?.stop();
    rmSync(root, { recursive: true, force: true });
  });

  /** Four turns in `cwd` (a session of its own), compacted by Codex before the last: the first turn request after that compaction. */
  async function session(name: string, env: Record<string, string>): Promise<{ next: LoggedRequest; rollout: string }> {
    const cwd = join(root, name);
    const codexHome = join(root, `${name}-home`);
    mkdirSync(cwd, { recursive: true });
    // The person's own answers to Codex's safety questions: this folder is trusted (Codex asks at its
    // first start here); the hooks were reviewed (`--dangerously-bypass-hook-trust` stands for that review).
    writeCodexConfig(codexHome, { baseUrl: server.url, extra: { model_auto_compact_token_limit: '24000' } });
    writeFileSync(
      join(codexHome, 'config.toml'),
      `${readFileSync(join(codexHome, 'config.toml'), 'utf8')}\n[projects.${JSON.stringify(cwd)}]\ntrust_level = "trusted"\n`,
    );
    const from = server.requests.length;
    let id: string | undefined;
    for (const prompt of PROMPTS) {
      const args = ['--dangerously-bypass-hook-trust', ...execArgs(id === undefined ? { prompt, cd: cwd } : { prompt, resume: id })];
      const run = await runCodex({ binary, codexHome, cwd, args, env, timeoutMs: RUN_TIMEOUT_MS });
      assert.equal(run.code, 0, run.stderr.slice(-3000));
      const [rollout] = rolloutFiles(codexHome);
      assert.ok(rollout);
      id ??= (JSON.parse(readFileSync(rollout, 'utf8').split('\n')[0] ?? '{}') as { payload: { id: string } }).payload.id;
    }
    const requests = server.requests.slice(from);
    const compaction = requests.find((request) => request.kind === 'compaction');
    assert.ok(compaction, `Codex did not compact (${requests.map((request) => request.kind).join(', ')})`);
    const next = requests.find((request) => request.seq > compaction.seq && request.kind === 'turn');
    assert.ok(next, 'no request after the compaction');
    const [rollout] = rolloutFiles(codexHome);
    assert.ok(rollout && readFileSync(rollout, 'utf8').includes('"type":"compacted"'), 'the rollout records Codex’s own compaction');
    return { next, rollout };
  }

  it('carries every rule and open loop into the first request after Codex compacts; without Connect they are gone; disconnect restores every file', async () => {
    const state = join(root, 'state');
    const env = { XDG_STATE_HOME: state };
    // Without Connect: the same prompts, the same compaction.
    const bare = await session('bare', env);
    const lost = KEPT.filter((text) => !texts(bare.next).includes(text));
    assert.deepEqual(lost, KEPT, 'without Connect, Codex’s own compaction loses them all');

    // The person's own `.codex/` files, then the shipped connect.
    const cwd = join(root, 'connected');
    mkdirSync(join(cwd, '.codex'), { recursive: true });
    const ownHooks = '{\n  "hooks": {\n    "Stop": [{ "hooks": [{ "type": "command", "command": "true" }] }]\n  }\n}\n';
    const ownConfig = '# mine\n[features]\nmemories = false\n';
    writeFileSync(join(cwd, '.codex', 'hooks.json'), ownHooks);
    writeFileSync(join(cwd, '.codex', 'config.toml'), ownConfig);
    const shippedEnv = { ...process.env, ...env };
    const connected = await runShippedOnce(['connect', '--agent', 'codex', '--workspace', cwd], { cwd, env: shippedEnv });
    assert.equal(connected.code, 0, runOutcome(connected));
    assert.ok(
      !readFileSync(join(cwd, '.codex', 'hooks.json'), 'utf8').includes(`${tmpdir()}/cl-connect-codex`),
      'the hook runs the shipped CLI, not a path in the test folder',
    );

    const { next, rollout } = await session('connected', env);
    const sent = texts(next);
    for (const text of KEPT) assert.ok(sent.includes(text), `the request after Codex's compaction lacks "${text}"\n${sent.slice(0, 3000)}`);
    assert.ok(sent.includes('Written by the user before this conversation was compacted'), 'the block came from the SessionStart hook');

    // The hook's own log says the block went in, for the panel's history and inspect.
    const events = readFileSync(join(state, 'context-lens', 'hook-events.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const ours = events.filter((event) => event.agent === 'codex' && event.printed === true);
    assert.ok(ours.length >= 1 && ours.every((event) => event.source === 'compact' && rollout.includes(String(event.sessionId))), JSON.stringify(events));

    const disconnected = await runShippedOnce(['disconnect', '--agent', 'codex', '--workspace', cwd], { cwd, env: shippedEnv });
    assert.equal(disconnected.code, 0, runOutcome(disconnected));
    assert.equal(readFileSync(join(cwd, '.codex', 'hooks.json'), 'utf8'), ownHooks);
    assert.equal(readFileSync(join(cwd, '.codex', 'config.toml'), 'utf8'), ownConfig);
    assert.ok(existsSync(join(cwd, '.codex')));
  });
});
