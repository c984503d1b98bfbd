// The live proxy between the real Claude Code CLI and the scripted stand-in: a multi-prompt session
// that reads the same files again and again in a window small enough for the proxy to act. Every
// turn completes, the agent's transcript stays whole (it is written from what the agent sent, not
// from what we sent), requests past the trigger carry stubs instead of superseded reads, consecutive
// requests keep their prefix, streaming works, and a dying upstream is an error for the agent.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { panelDir, proxyStateDir, startLiveProxy, writePanelInstructions, type LiveProxy } from '../../src/proxy';
import { readProxyEvents } from '../../src/proxy/events';
import { ALLOWED_TOOLS, DEFAULT_MODEL, ensureClaudeCli, printArgs, projectDir, runClaude, sessionIds } from '../support/claudeCli';
import { runOutcome } from '../support/cliRun';
import {
  type FakeAnthropic,
  type LoggedRequest,
  type MessagesRequest,
  reply,
  startFakeAnthropic,
  text,
  toolResultText,
  toolUse,
  type Turn,
} from '../support/fake-anthropic';
import { startDyingUpstream } from '../support/dyingUpstream';
import { eachShippedPass, proxyListening } from '../support/shippedCli';

const RUN_TIMEOUT_MS = 90_000;
const PROMPTS = 6;
/**
 * Claude Code's own system prompt and tools are ~13k tokens (chars/4) and each read ~2.8k: the
 * trigger (40k) is crossed after about ten reads and again some reads after the first batch.
 */
const LIVE = { windowTokens: 80_000, triggerPercent: 50, minBatchTokens: 1_000 };

/**
 * A message as the API reads it: cache breakpoints move from request to request, and Claude Code
 * itself sends a text as a string once and as a text block the next time (the same tokens).
 */
const normalized = (message: unknown): string =>
  JSON.stringify(message, (key, inner: unknown) =>
    key === 'cache_control' ? undefined : key === 'content' && typeof inner === 'string' ? [{ type: 'text', text: inner }] : inner,
  );
const withoutCacheControl = (messages: unknown): string => (Array.isArray(messages) ? messages.map(normalized).join('\n') : normalized(messages));
const bodyOf = (request: LoggedRequest): MessagesRequest => request.body as MessagesRequest;

describe('the live proxy with the real Claude Code CLI', () => {
  const root = mkdtempSync(join(tmpdir(), 'cl-proxy-it-'));
  const cwd = join(root, 'project');
  const configDir = join(root, 'config');
  const files = { a: join(cwd, 'alpha.ts'), b: join(cwd, 'beta.ts') };
  let binary: string;
  let fake: FakeAnthropic;
  let proxy: LiveProxy;

  before(async () => {
    binary = ensureClaudeCli();
    mkdirSync(cwd, { recursive: true });
    writeFileSync(files.a, Array.from({ length: 200 }, (_, line) => `export const alpha${line} = ${line} * 2; // the alpha table\n`).join(''));
    writeFileSync(files.b, Array.from({ length: 200 }, (_, line) => `export const beta${line} = ${line} + 1; // the beta table\n`).join(''));
    const read =
      (path: string): Turn =>
      () =>
        reply(toolUse('Read', { file_path: path }));
    const prompt: Turn[] = [read(files.a), read(files.b), read(files.a), () => reply(text('Both tables look fine.'))];
    fake = await startFakeAnthropic({ scenario: { turns: Array.from({ length: PROMPTS }, () => prompt).flat() } });
    const started = await startLiveProxy({ upstream: fake.url, env: {}, stateDir: join(root, 'state'), live: LIVE });
    assert.ok(started.ok, started.ok ? '' : started.error);
    proxy = started.value;
  });
  after(async () => {
    await proxy?.stop(100);
    await fake?.stop();
    rmSync(root, { recursive: true, force: true });
  });

  it('compacts a multi-prompt session with repeated reads, stickily, without touching the transcript', { timeout: 600_000 }, async () => {
    let session: string | undefined;
    for (let turn = 0; turn < PROMPTS; turn++) {
      const run = await runClaude({
        binary,
        args: printArgs({ prompt: `Check the tables, round ${turn + 1}.`, ...(session ? { resume: session } : {}) }),
        cwd,
        configDir,
        baseUrl: proxy.url,
        timeoutMs: RUN_TIMEOUT_MS,
      });
      assert.equal(run.code, 0, `prompt ${turn + 1}: ${run.stderr}`);
      assert.match(run.stdout, /Both tables look fine/);
      session ??= sessionIds(configDir, cwd)[0];
    }
    assert.equal(fake.errors.length, 0, fake.errors.map((error) => error.message).join('\n'));
    await proxy.stop(100);
    const read = await readProxyEvents(proxy.eventsPath);
    assert.ok(read.ok);
    const events = read.value.filter((event) => event.path === '/v1/messages');
    assert.ok(
      events.every((event) => event.action !== 'failed-open'),
      events.map((event) => event.reason).join('\n'),
    );
    assert.ok(
      events.some((event) => event.action === 'edited'),
      'the proxy acted',
    );
    // Streaming: every main call streamed, and its exact usage was read from the SSE events.
    const main = fake.requests.filter((request) => request.kind === 'main');
    assert.ok(main.every((request) => bodyOf(request).stream === true));
    assert.ok(events.filter((event) => event.stream).every((event) => event.usage !== null && event.usage.inputTokens > 0));

    // Past the trigger the older reads of a file reach the model as stubs, the newest one whole.
    const stubbed = main.filter((request) => JSON.stringify(request.body).includes('ctx-lens:'));
    assert.ok(stubbed.length > 0, 'stubs reached the model');
    const last = bodyOf(main[main.length - 1] as LoggedRequest);
    const results = last.messages.flatMap((message) =>
      typeof message.content === 'string' ? [] : message.content.filter((block) => block.type === 'tool_result'),
    );
    const contents = results.map((block) => JSON.stringify(block.content));
    assert.ok(
      contents.some((content) => content.includes('[COMPACTED] Earlier') && content.includes('alpha.ts')),
      'a superseded read of alpha.ts is a stub',
    );
    assert.ok(contents.at(-1)?.includes('the alpha table'), 'the newest read is whole');

    // Prefix: each request starts with the previous one's messages (cache breakpoints aside).
    let kept = 0;
    for (let index = 1; index < main.length; index++) {
      const previous = bodyOf(main[index - 1] as LoggedRequest).messages;
      const current = bodyOf(main[index] as LoggedRequest).messages;
      if (withoutCacheControl(current.slice(0, previous.length)) === withoutCacheControl(previous)) kept += 1;
      else if (process.env.DEBUG_PROXY_IT) {
        const at = previous.findIndex((message, i) => withoutCacheControl(message) !== withoutCacheControl(current[i]));
        console.log(
          'break',
          index,
          at,
          previous.length,
          current.length,
          withoutCacheControl(previous[at]).slice(0, 300),
          '\n---\n',
          withoutCacheControl(current[at]).slice(0, 300),
        );
      }
    }
    const share = kept / (main.length - 1);
    console.log(
      `proxy integration: ${main.length} main requests, ${stubbed.length} with stubs, ${events.filter((event) => event.action === 'edited').length} batches, prefix kept in ${kept}/${main.length - 1} (${(share * 100).toFixed(0)} %)`,
    );
    assert.ok(share >= 0.8, `prefix kept in ${kept} of ${main.length - 1}`);

    // The transcript is written from what the agent sent: every read is whole, no stub, no ref.
    const transcript = readFileSync(join(projectDir(configDir, cwd), `${session}.jsonl`), 'utf8');
    assert.ok(!transcript.includes('ctx-lens:') && !transcript.includes('[COMPACTED]'), 'no stub in the transcript');
    assert.equal(transcript.split('the alpha table').length - 1 >= 200 * 2 * PROMPTS, true, 'every read of alpha.ts whole');
  });

  it('an upstream dying mid-stream gives the agent an error, not a hang', { timeout: 300_000 }, async () => {
    const dying = await startDyingUpstream();
    const started = await startLiveProxy({ upstream: dying.url, env: {}, stateDir: join(root, 'state-dying'), live: LIVE });
    assert.ok(started.ok);
    const begun = Date.now();
    const run = await runClaude({
      binary,
      args: printArgs({ prompt: 'Say hello.' }),
      cwd,
      configDir: join(root, 'config-dying'),
      baseUrl: started.value.url,
      timeoutMs: 240_000,
      env: { CLAUDE_CODE_MAX_RETRIES: '1' },
    });
    const took = Date.now() - begun;
    await started.value.stop(100);
    await dying.stop();
    assert.notEqual(run.code, 0, run.stdout);
    assert.ok(took < 200_000, `took ${took} ms`);
    assert.match(`${run.stdout}\n${run.stderr}`, /error|Context Lens proxy/i);
    assert.ok(dying.requests >= 1);
  });

  it(
    "a proxy started in a terminal follows the panel's choices for the session: a dropped read goes as a stub on the next prompt, on every runtime cold and warm",
    { timeout: 600_000 },
    async () => {
      let index = 0;
      await eachShippedPass(async (pass) => {
        const stateDir = join(root, `state-terminal-${index}`);
        const session = randomUUID();
        let resumed: MessagesRequest | undefined;
        const turns: Turn[] = [
          () => reply(toolUse('Read', { file_path: files.a })),
          () => reply(text('Read it.')),
          (context) => {
            resumed = context.request;
            return reply(text('Done.'));
          },
        ];
        const terminalFake = await startFakeAnthropic({ scenario: { turns } });
        // As a person would start it in a terminal: the shipped command, its own process, the default options.
        const child = pass.start(['proxy', '--state-dir', stateDir, '--upstream', terminalFake.url]);
        try {
          const url = await proxyListening(child);
          const configDir = join(root, `config-terminal-${index++}`);
          const first = await runClaude({
            binary,
            args: printArgs({ prompt: 'Read alpha.ts.', extra: ['--session-id', session] }),
            cwd,
            configDir,
            baseUrl: url,
            timeoutMs: RUN_TIMEOUT_MS,
          });
          assert.equal(first.code, 0, first.stderr);
          const readId = terminalFake.requests
            .flatMap((request) => (request.kind === 'main' ? bodyOf(request).messages : []))
            .flatMap((message) => (Array.isArray(message.content) ? message.content : []))
            .find((block) => block.type === 'tool_result')?.tool_use_id;
          assert.ok(typeof readId === 'string', 'the read went through the proxy');
          // What the extension writes when the person drops that read in the map of this session.
          assert.ok((await writePanelInstructions(panelDir(stateDir), session, { drop: [readId] })).ok);
          const second = await runClaude({
            binary,
            args: printArgs({ prompt: 'Go on.', resume: session }),
            cwd,
            configDir,
            baseUrl: url,
            timeoutMs: RUN_TIMEOUT_MS,
          });
          assert.equal(second.code, 0, second.stderr);
          const sentResult = resumed?.messages
            .flatMap((message) => (Array.isArray(message.content) ? message.content : []))
            .find((block) => block.type === 'tool_result' && block.tool_use_id === readId);
          assert.ok(sentResult, 'the resumed request carries the read');
          const events = await readProxyEvents(join(stateDir, 'events.jsonl'));
          assert.ok(events.ok);
          // What the proxy said about each request, should the stub be missing.
          const said = events.value.map((event) => `${event.action}: ${event.reason ?? ''} (${event.addedMs} ms)`).join('\n');
          assert.match(toolResultText(sentResult).slice(0, 300), /^\[DROPPED\] Read .*alpha\.ts output, left out of the context by the person's choice/, said);
          assert.ok(
            events.value.some((event) => event.agentSession === session && event.newEdits.some((edit) => edit.toolUseId === readId && edit.tier === 'choice')),
            'the event names the session and the choice',
          );
          const transcript = readFileSync(join(projectDir(configDir, cwd), `${session}.jsonl`), 'utf8');
          assert.ok(!transcript.includes('[DROPPED]'), 'the agent keeps its own transcript whole');
        } finally {
          child.kill('SIGINT');
          await new Promise((resolve) => (child.exitCode === null ? child.once('exit', resolve) : resolve(undefined)));
          await terminalFake.stop();
        }
      });
    },
  );

  it(
    'the real CLI calls compact_context and recall through the MCP server `ctxlens connect` registered, and the next request shows the effect, on every runtime cold and warm',
    { timeout: 900_000 },
    async () => {
      let index = 0;
      await eachShippedPass(async (pass) => {
        // The server finds the proxy's state folder as the proxy does: by XDG_STATE_HOME, which Claude Code passes on (and this pass's code cache).
        const env = { XDG_STATE_HOME: join(root, `xdg-mcp-${index}`), ...pass.env };
        const stateDir = proxyStateDir(env);
        const connected = await pass.run(['connect', cwd], { env: { ...process.env, ...env } });
        assert.equal(connected.code, 0, runOutcome(connected));
        assert.match(connected.stdout, /Wrote .*\.mcp\.json/);
        const read =
          (path: string): Turn =>
          () =>
            reply(toolUse('Read', { file_path: path }));
        let stubsAfterRequest = 0;
        let recalled = '';
        const turns: Turn[] = [
          ...[files.a, files.b, files.a, files.b, files.a, files.b].map(read),
          () => reply(toolUse('mcp__context-lens__compact_context', { reason: 'finished reading the tables', focus: '' })),
          (context) => {
            const body = JSON.stringify(context.request);
            stubsAfterRequest = body.split('[COMPACTED] Earlier').length - 1;
            const ref = /ctx-lens:[0-9a-f]{16}/.exec(body)?.[0] ?? 'ctx-lens:none';
            return reply(toolUse('mcp__context-lens__recall', { ref }));
          },
          (context) => {
            recalled = context.toolResults[0] ? toolResultText(context.toolResults[0]) : '';
            return reply(text('Recalled it.'));
          },
        ];
        const mcpFake = await startFakeAnthropic({ scenario: { turns } });
        // The trigger is never crossed here: only the agent's request compacts.
        const started = await startLiveProxy({ upstream: mcpFake.url, env: {}, stateDir, live: { ...LIVE, windowTokens: 60_000, triggerPercent: 90 } });
        assert.ok(started.ok);
        // No --mcp-config: Claude Code finds the server in the project's .mcp.json.
        const args = [
          '-p',
          'Read the tables, then compact and recall.',
          '--allowedTools',
          `${ALLOWED_TOOLS},mcp__context-lens__compact_context,mcp__context-lens__recall`,
          '--model',
          DEFAULT_MODEL,
        ];
        const run = await runClaude({
          binary,
          args,
          cwd,
          configDir: join(root, `config-mcp-${index++}`),
          baseUrl: started.value.url,
          env,
          timeoutMs: RUN_TIMEOUT_MS,
        });
        await started.value.stop(100);
        await mcpFake.stop();
        const disconnected = await pass.run(['disconnect', cwd], { env: { ...process.env, ...env } });
        assert.equal(disconnected.code, 0, runOutcome(disconnected));
        assert.equal(existsSync(join(cwd, '.mcp.json')), false, 'disconnect removes the .mcp.json connect created');
        assert.equal(run.code, 0, run.stderr);
        assert.match(run.stdout, /Recalled it/);
        const compactCall = mcpFake.requests.findIndex((request) => request.kind === 'main' && JSON.stringify(request.body).includes('Compaction requested'));
        assert.ok(compactCall >= 0, 'the tool answered and said it changed nothing by itself');
        // And whether it pays, estimated from the transcript Claude Code was writing (its model has no price here).
        assert.match(
          JSON.stringify(mcpFake.requests[compactCall]?.body),
          /No price for [\w.-]+: tokens only \([\d,]+ → [\d,]+ tokens, estimated from the transcript\)|Nothing to compact now|At [\w.-]+'s prices it costs/,
        );
        const before = mcpFake.requests.slice(0, compactCall).filter((request) => request.kind === 'main');
        assert.ok(
          before.every((request) => !JSON.stringify(request.body).includes('ctx-lens:')),
          'nothing compacted before the agent asked',
        );
        assert.ok(stubsAfterRequest >= 2, `the next request carries stubs (${stubsAfterRequest})`);
        assert.match(recalled, /the (alpha|beta) table/);
        assert.ok(!recalled.includes('[COMPACTED]'));
      });
    },
  );
});
