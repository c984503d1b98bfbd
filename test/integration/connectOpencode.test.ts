// Proof that Connect steers OpenCode's own compaction: the shipped `ctxlens connect --agent opencode
// --workspace DIR` writes a plugin into the project's `.opencode/plugins/`, the real OpenCode
// (1.18.33, offline against the chat-completions stand-in) compacts the session by itself once a
// small model window overflows, and the summariser's request and the first request after the
// compaction carry every rule and open loop the person typed (test/fixtures/phrasings). The same run
// in a folder not connected loses them: the stand-in's summary names none. Disconnect removes the
// plugin and leaves the person's own plugin and config byte for byte.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runOutcome } from '../support/cliRun';
import { estimateTokens, startFakeChat, type FakeChat, type LoggedChatRequest } from '../support/fake-openai-chat';
import { ensureOpencodeCli, runOpencode } from '../support/opencodeCli';
import { pastedLog, PINNED_LOOPS, PINNED_RULES, PINNED_WORDS } from '../support/pinnedPhrasings';
import { runShippedOnce } from '../support/shippedCli';

/**
 * The rules and open loops come with a pasted log in the first prompt, which overflows the window:
 * OpenCode compacts right after it and continues by itself; a second prompt is a turn after that.
 * Carried whole, that first prompt made the block alone overflow the window (it compacted in a loop).
 */
const PROMPTS = [`${[...PINNED_RULES, ...PINNED_LOOPS].join(' ')}\nhere is the sync log:\n${pastedLog(300)}`, 'carry on with the sync work'];
const RUN_TIMEOUT_MS = 60_000;
/** Small enough that the pasted log overflows it, so OpenCode compacts by itself. */
const LIMIT = { context: 10_000, output: 1_000 };
/** Nothing kept verbatim: the overflowing turn would otherwise make it compact again and again. */
const COMPACTION = { preserve_recent_tokens: 0 };
const SUMMARY = '## Goal\nWork on the sync feature.\n\n## Progress\nThe log was read.';
const BLOCK_HEAD = 'Written by the user before this conversation was compacted';
const SUMMARISER_HEAD = "Keep the user's words below verbatim in the summary";

const texts = (request: LoggedChatRequest): string =>
  request.body.messages.map((message) => (typeof message.content === 'string' ? message.content : JSON.stringify(message.content))).join('\n');

describe('OpenCode connected by ctxlens connect --agent opencode: its own compaction keeps the person’s words', { timeout: 200_000 }, () => {
  let root: string;
  let binary: string;

  before(() => {
    binary = ensureOpencodeCli();
    root = mkdtempSync(join(tmpdir(), 'cl-connect-opencode-'));
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  /** The prompts in `cwd`, one session, against a stand-in of its own: its requests. */
  async function session(name: string): Promise<{ chat: LoggedChatRequest[]; state: string }> {
    const cwd = join(root, name);
    const home = join(root, `${name}-home`);
    mkdirSync(cwd, { recursive: true });
    const chat: FakeChat = await startFakeChat({ steps: Array.from({ length: 6 }, () => ({ text: 'Noted.' })), summary: SUMMARY });
    try {
      let id: string | undefined;
      for (const prompt of PROMPTS) {
        const run = await runOpencode({
          binary,
          root: home,
          cwd,
          baseUrl: chat.url,
          limit: LIMIT,
          config: { compaction: COMPACTION },
          timeoutMs: RUN_TIMEOUT_MS,
          args: ['run', '--format', 'json', ...(id === undefined ? [] : ['--session', id]), prompt],
        });
        assert.equal(run.code, 0, runOutcome(run));
        id ??= /"sessionID":"(ses_[0-9A-Za-z]+)"/.exec(run.stdout)?.[1];
        assert.ok(id, run.stdout.slice(0, 500));
      }
      return { chat: [...chat.requests], state: join(home, 'state') };
    } finally {
      await chat.stop();
    }
  }

  it('hands the block to the summariser and puts it back after OpenCode compacts, once; without Connect they are gone; disconnect removes only the plugin', async () => {
    const cwd = join(root, 'connected');
    mkdirSync(join(cwd, '.opencode', 'plugins'), { recursive: true });
    const ownPlugin = 'export const Mine = async () => ({});\n';
    const ownConfig = '{ "$schema": "https://opencode.ai/config.json" }\n';
    writeFileSync(join(cwd, '.opencode', 'plugins', 'mine.js'), ownPlugin);
    writeFileSync(join(cwd, '.opencode', 'opencode.json'), ownConfig);
    const connected = await runShippedOnce(['connect', '--agent', 'opencode', '--workspace', cwd], {
      cwd,
      env: { ...process.env, XDG_STATE_HOME: join(root, 'connect-state') },
    });
    assert.equal(connected.code, 0, runOutcome(connected));

    // The same prompts without Connect and with it, side by side (each OpenCode run takes 15-30 s here).
    const [bare, { chat, state }] = await Promise.all([session('bare'), session('connected')]);
    const bareNext = bare.chat.find((request, at) => request.kind === 'turn' && bare.chat.slice(0, at).some((earlier) => earlier.kind === 'summary'));
    assert.ok(bareNext, `OpenCode did not compact (${bare.chat.map((request) => `${request.kind} ${request.prompt}`).join(', ')})`);
    assert.deepEqual(
      PINNED_WORDS.filter((words) => !texts(bareNext).includes(words)),
      PINNED_WORDS,
      'without Connect, the compaction loses them all',
    );

    // One compaction each: the session fits again afterwards, the block included.
    assert.equal(bare.chat.filter((request) => request.kind === 'summary').length, 1);
    assert.equal(chat.filter((request) => request.kind === 'summary').length, 1, chat.map((request) => `${request.kind} ${request.prompt}`).join(', '));
    const summary = chat.find((request) => request.kind === 'summary');
    assert.ok(summary, `OpenCode did not compact (${chat.map((request) => request.kind).join(', ')})`);
    // The compaction prompt itself carries the block (experimental.session.compacting).
    const asked = summary.body.messages
      .filter((message) => message.role === 'user')
      .map((message) => (typeof message.content === 'string' ? message.content : JSON.stringify(message.content)))
      .join('\n');
    assert.ok(asked.includes(SUMMARISER_HEAD), asked.slice(-2000));
    for (const words of PINNED_WORDS) assert.ok(asked.includes(words), `the summariser was not handed "${words}"`);
    const later = chat.filter((request) => request.n > summary.n && request.kind === 'turn');
    assert.ok(later.length >= 2, 'no turns after the compaction');
    const blocks = new Set<string>();
    for (const next of later) {
      const sent = texts(next);
      for (const words of PINNED_WORDS) assert.ok(sent.includes(words), `the request after OpenCode's compaction lacks "${words}"\n${sent.slice(0, 3000)}`);
      const block = next.body.messages.find(
        (message) => message.role === 'system' && typeof message.content === 'string' && message.content.startsWith(BLOCK_HEAD),
      );
      assert.ok(block, 'the block came back through the system prompt');
      // What it costs each turn: within the prompt budget's 5 % of the window, the pasted log left out.
      assert.ok(estimateTokens(JSON.stringify(block)) < LIMIT.context * 0.05, String(block.content));
      assert.ok(!String(block.content).includes('flushed batch'));
      blocks.add(String(block.content));
    }
    // The same block on every turn until the next compaction, whichever process built it (the second
    // prompt is a new `opencode run`): the provider's prompt cache keeps it.
    assert.equal(blocks.size, 1, [...blocks].join('\n---\n'));
    // Before the compaction no request carried it.
    assert.deepEqual(
      chat.filter((request) => request.n < summary.n && texts(request).includes(BLOCK_HEAD)).map((request) => request.n),
      [],
    );

    const events = readFileSync(join(state, 'context-lens', 'hook-events.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    assert.ok(
      events.some((event) => event.agent === 'opencode' && event.hook === 'pre-compact' && event.printed === true),
      JSON.stringify(events),
    );
    assert.ok(
      events.some((event) => event.agent === 'opencode' && event.hook === 'session-start' && event.printed === true),
      JSON.stringify(events),
    );

    const disconnected = await runShippedOnce(['disconnect', '--agent', 'opencode', '--workspace', cwd], {
      cwd,
      env: { ...process.env, XDG_STATE_HOME: join(root, 'connect-state') },
    });
    assert.equal(disconnected.code, 0, runOutcome(disconnected));
    assert.ok(!existsSync(join(cwd, '.opencode', 'plugins', 'context-lens.js')));
    assert.equal(readFileSync(join(cwd, '.opencode', 'plugins', 'mine.js'), 'utf8'), ownPlugin);
    assert.equal(readFileSync(join(cwd, '.opencode', 'opencode.json'), 'utf8'), ownConfig);
  });
});
