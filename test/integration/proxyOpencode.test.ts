// The live proxy with the real OpenCode CLI (offline against the Chat Completions stand-in), started
// as a person would: `ctxlens run -- opencode run …` from the shipped bundle, which points the
// provider of OpenCode's model at the proxy through OPENCODE_CONFIG_CONTENT for that command. One
// run reads the same files again and again in a window small enough for the proxy to act: what
// the stand-in receives has the stale reads stubbed, the run finishes without an API error,
// consecutive requests keep their prefix, and each request's event carries its exact usage. One
// run (OpenCode takes 15–60 s on two shared cores), under the newest runtime.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { readProxyEvents } from '../../src/proxy/events';
import { runOutcome } from '../support/cliRun';
import { startFakeChat, type ChatMessage, type ChatStep, type FakeChat } from '../support/fake-openai-chat';
import { ensureOpencodeCli, opencodeEnv } from '../support/opencodeCli';
import { runShippedOnce } from '../support/shippedCli';

const READS = 18;
/** OpenCode's system prompt and tools are ~7k tokens and each read ~1.25k: the trigger (22k) is crossed after about twelve reads. */
const LIVE = ['--window', '44000', '--trigger-percent', '50', '--target-percent', '30', '--min-batch-tokens', '500'];

const contentOf = (message: ChatMessage): string => (typeof message.content === 'string' ? message.content : JSON.stringify(message.content));

describe('the live proxy with the real OpenCode CLI (ctxlens run -- opencode)', { timeout: 300_000 }, () => {
  const root = mkdtempSync(join(tmpdir(), 'cl-proxy-opencode-'));
  const cwd = join(root, 'workspace');
  const files = { a: join(cwd, 'alpha.txt'), b: join(cwd, 'beta.txt') };
  let binary: string;
  let chat: FakeChat;

  before(async () => {
    binary = ensureOpencodeCli();
    mkdirSync(cwd, { recursive: true });
    writeFileSync(files.a, Array.from({ length: 120 }, (_, line) => `alpha${line} = ${line} * 2 # the alpha table\n`).join(''));
    writeFileSync(files.b, Array.from({ length: 120 }, (_, line) => `beta${line} = ${line} + 1 # the beta table\n`).join(''));
    const steps: ChatStep[] = [
      ...Array.from({ length: READS }, (_, read) => ({ toolCalls: [{ name: 'read', arguments: { filePath: read % 2 === 0 ? files.a : files.b } }] })),
      { text: 'Both tables look fine.' },
    ];
    chat = await startFakeChat({ steps });
  });
  after(async () => {
    await chat?.stop();
    rmSync(root, { recursive: true, force: true });
  });

  it('stubs stale reads past the trigger, keeps the prefix and records exact usage', async () => {
    const stateDir = join(root, 'state');
    const env = opencodeEnv({ root, baseUrl: chat.url });
    // No --upstream: the proxy sends the requests where the provider's baseURL pointed.
    const run = await runShippedOnce(['run', '--state-dir', stateDir, ...LIVE, '--', binary, 'run', '--format', 'json', 'Check the alpha and beta tables.'], {
      cwd,
      env,
      timeoutMs: 240_000,
    });
    assert.equal(run.code, 0, runOutcome(run));
    assert.match(run.stdout, /Both tables look fine/);
    assert.equal(chat.errors.length, 0, chat.errors.map((error) => error.message).join('\n'));
    const turns = chat.requests.filter((request) => request.kind === 'turn');
    assert.equal(turns.length, READS + 1, 'every turn reached the stand-in');
    const read = await readProxyEvents(join(stateDir, 'events.jsonl'));
    assert.ok(read.ok);
    const events = read.value.filter((event) => event.format === 'openai-chat');
    const said = events.map((event) => `${event.action}: ${event.reason ?? ''}`).join('\n');
    assert.equal(events.length, chat.requests.length, `one event per request\n${said}`);
    assert.ok(
      events.every((event) => event.action !== 'failed-open' && event.status === 200),
      said,
    );
    assert.ok(
      events.some((event) => event.action === 'edited'),
      `the proxy acted\n${said}`,
    );

    // Past the trigger the older reads reach the model as stubs, the newest whole.
    const last = turns.at(-1)?.body.messages ?? [];
    const outputs = last.filter((message) => message.role === 'tool').map(contentOf);
    if (process.env.DEBUG_PROXY_IT) console.log(last.map((message) => `${message.role}: ${contentOf(message).slice(0, 160)}`).join('\n'));
    // OpenCode's read tool names its file as `filePath`: the engine clears old reads and dedupes repeated ones.
    const stubs = outputs.filter((output) => output.includes('ctx-lens:') && !output.includes('# the '));
    assert.ok(stubs.length >= READS / 3, `older reads are stubs with a recall ref (${stubs.length})\n${said}`);
    assert.ok(outputs.at(-1)?.includes('the beta table'), 'the newest read is whole');

    // Prefix: each turn request starts with the previous one's messages.
    let kept = 0;
    for (let at = 1; at < turns.length; at++) {
      const previous = turns[at - 1]?.body.messages ?? [];
      const current = turns[at]?.body.messages ?? [];
      if (JSON.stringify(current.slice(0, previous.length)) === JSON.stringify(previous)) kept += 1;
    }
    const share = kept / (turns.length - 1);
    console.log(
      `proxy with OpenCode: ${turns.length} turn requests, ${events.filter((event) => event.action === 'edited').length} batches, prefix kept in ${kept}/${turns.length - 1} (${(share * 100).toFixed(0)} %); prompts ${turns.map((turn) => turn.prompt).join(' ')}`,
    );
    assert.ok(share >= 0.85, `prefix kept in ${kept} of ${turns.length - 1}`);

    // The exact usage of every request, cached tokens inside the prompt as the API counts them.
    events.forEach((event, at) => {
      const logged = chat.requests[at];
      assert.ok(logged && event.usage, `usage of request ${at}`);
      assert.equal(event.usage.inputTokens + event.usage.cacheReadTokens, logged.prompt);
    });
  });
});
