// The live proxy with the real Codex CLI, from the shipped bundle on every runtime cold and warm.
// A session of five prompts goes through one `ctxlens proxy` (as an interactive Codex goes through
// the one `ctxlens run` that started it; each `codex exec` is a process of its own, and a proxy per
// command would forget its edits between them). Codex reads the same files again and again in a
// window small enough for the proxy to act: what the Responses stand-in receives has the superseded
// outputs stubbed, every turn finishes, consecutive requests keep their prefix, Codex's encrypted
// reasoning goes back as it came, and each request's event carries its exact usage. Then
// `ctxlens run -- codex exec …` points Codex at a proxy of its own for that command, through a
// `-c` override: its config.toml is left as it was.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { readProxyEvents } from '../../src/proxy/events';
import { sessionIdFromPath } from '../../src/sessions/codex/paths';
import { runOutcome } from '../support/cliRun';
import { ensureCodexCli, execArgs, rolloutFiles, runCodex, writeCodexConfig } from '../support/codexCli';
import { exec, message, reasoning, reply, startFakeOpenAI, type InputItem, type LoggedRequest, type ResponsesRequest } from '../support/fake-openai';
import { eachShippedPass, proxyListening } from '../support/shippedCli';

const PROMPTS = [1, 2, 3, 4, 5].map((round) => `Check the tables, round ${round}.`);
/** Opaque to everyone but the provider: it must come back byte for byte. */
const ENCRYPTED = 'gAAAAABo+enc/0123456789+/=\\u00e9"quoted"';
/** Codex's instructions and tools are ~9k tokens, each read ~1.5k: the trigger (25k) is crossed in the fourth prompt. */
const LIVE = ['--window', '50000', '--trigger-percent', '50', '--target-percent', '30', '--min-batch-tokens', '500'];

const bodyOf = (request: LoggedRequest): ResponsesRequest => request.body as ResponsesRequest;
const outputOf = (item: InputItem): string => (typeof item.output === 'string' ? item.output : JSON.stringify(item.output));

describe('the live proxy with the real Codex CLI (ctxlens run -- codex)', () => {
  const root = mkdtempSync(join(tmpdir(), 'cl-proxy-codex-'));
  const cwd = join(root, 'project');
  let binary: string;

  before(() => {
    binary = ensureCodexCli();
    mkdirSync(cwd, { recursive: true });
    writeFileSync(join(cwd, 'alpha.txt'), Array.from({ length: 120 }, (_, line) => `alpha${line} = ${line} * 2 # the alpha table\n`).join(''));
    writeFileSync(join(cwd, 'beta.txt'), Array.from({ length: 120 }, (_, line) => `beta${line} = ${line} + 1 # the beta table\n`).join(''));
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  it(
    'stubs superseded reads past the trigger, keeps the prefix and the encrypted reasoning, and records exact usage, on every runtime cold and warm',
    { timeout: 600_000 },
    async () => {
      let index = 0;
      await eachShippedPass(async (pass) => {
        const steps = [
          () => reply(exec('cat alpha.txt')),
          () => reply(exec('cat beta.txt')),
          () => reply(exec('cat alpha.txt')),
          () => reply(reasoning('Both tables are fine.', ENCRYPTED), message('Both tables look fine.')),
        ];
        const fake = await startFakeOpenAI({ scenario: { prompts: PROMPTS.map((prompt) => ({ prompt, steps })) } });
        const codexHome = join(root, `codex-${index}`);
        const stateDir = join(root, `state-${index++}`);
        const proxy = pass.start(['proxy', '--upstream', fake.url, '--state-dir', stateDir, ...LIVE]);
        try {
          const url = await proxyListening(proxy);
          writeCodexConfig(codexHome, { baseUrl: url });
          let session: string | undefined;
          for (const prompt of PROMPTS) {
            const run = await runCodex({
              binary,
              codexHome,
              cwd,
              args: execArgs({ prompt, ...(session ? { resume: session } : { cd: cwd }) }),
              timeoutMs: 60_000,
            });
            assert.equal(run.code, 0, `${prompt}\n${runOutcome(run)}`);
            assert.match(run.stdout, /Both tables look fine/);
            session ??= sessionIdFromPath(rolloutFiles(codexHome)[0] ?? '') ?? undefined;
            assert.ok(session, 'Codex wrote a rollout');
          }
          assert.equal(fake.errors.length, 0, fake.errors.map((error) => error.message).join('\n'));
          proxy.kill('SIGINT');
          await new Promise((resolve) => (proxy.exitCode === null ? proxy.once('exit', resolve) : resolve(undefined)));
          const turns = fake.requests.filter((request) => request.kind === 'turn');
          const read = await readProxyEvents(join(stateDir, 'events.jsonl'));
          assert.ok(read.ok);
          const events = read.value.filter((event) => event.format === 'openai-responses');
          const said = events.map((event) => `${event.action}: ${event.reason ?? ''}`).join('\n');
          assert.equal(events.length, turns.length, `one event per Responses request\n${said}`);
          assert.ok(
            events.every((event) => event.action !== 'failed-open'),
            said,
          );
          assert.ok(
            events.some((event) => event.action === 'edited'),
            `the proxy acted\n${said}`,
          );
          assert.ok(
            events.every((event) => event.agentSession === session),
            'every event names the Codex session (prompt_cache_key)',
          );

          // Past the trigger the older reads of alpha.txt reach the model as stubs, the newest whole.
          const last = bodyOf(turns.at(-1) as LoggedRequest).input;
          const outputs = last.filter((item) => item.type === 'function_call_output').map(outputOf);
          assert.ok(
            outputs.some((output) => output.includes('[COMPACTED]') && output.includes('ctx-lens:')),
            `a superseded read is a stub\n${said}`,
          );
          assert.ok(outputs.at(-1)?.includes('the alpha table'), 'the newest read is whole');

          // Codex's encrypted reasoning goes back as it came, in every request that carries it.
          const carried = turns.flatMap((request) => bodyOf(request).input.filter((item) => item.type === 'reasoning' && 'encrypted_content' in item));
          assert.ok(carried.length > 0, 'Codex sent its reasoning back');
          assert.ok(carried.every((item) => item.encrypted_content === ENCRYPTED));

          // Prefix: each request starts with the previous one's items.
          let kept = 0;
          for (let at = 1; at < turns.length; at++) {
            const previous = bodyOf(turns[at - 1] as LoggedRequest).input;
            const current = bodyOf(turns[at] as LoggedRequest).input;
            if (JSON.stringify(current.slice(0, previous.length)) === JSON.stringify(previous)) kept += 1;
            else if (process.env.DEBUG_PROXY_IT) {
              const first = previous.findIndex((item, i) => JSON.stringify(item) !== JSON.stringify(current[i]));
              console.log(
                'break',
                at,
                first,
                previous.length,
                current.length,
                events[at]?.action,
                events[at]?.reason,
                JSON.stringify(previous[first]).slice(0, 300),
                '\n---\n',
                JSON.stringify(current[first]).slice(0, 300),
              );
            }
          }
          const share = kept / (turns.length - 1);
          console.log(
            `proxy with Codex [${pass.label}]: ${turns.length} requests, ${events.filter((event) => event.action === 'edited').length} batches, prefix kept in ${kept}/${turns.length - 1} (${(share * 100).toFixed(0)} %)`,
          );
          assert.ok(share >= 0.85, `prefix kept in ${kept} of ${turns.length - 1}`);

          // The exact usage of every request, cached tokens inside the input as the API counts them.
          events.forEach((event, at) => {
            const usage = turns[at]?.usage;
            assert.ok(usage && event.usage, `usage of request ${at}`);
            assert.equal(event.usage.inputTokens + event.usage.cacheReadTokens, usage.input_tokens);
            assert.equal(event.usage.cacheReadTokens, usage.cached_tokens);
            assert.equal(event.usage.outputTokens, usage.output_tokens);
          });
        } finally {
          if (proxy.exitCode === null) proxy.kill('SIGINT');
          await fake.stop();
        }
      });
    },
  );

  it(
    'ctxlens run -- codex points that one command at a proxy of its own through -c, leaving config.toml as it was, on every runtime cold and warm',
    { timeout: 300_000 },
    async () => {
      let index = 0;
      await eachShippedPass(async (pass) => {
        const fake = await startFakeOpenAI({ scenario: { prompts: [{ prompt: 'Say hello.', steps: [() => reply(message('Hello through the proxy.'))] }] } });
        const codexHome = join(root, `codex-run-${index}`);
        const stateDir = join(root, `state-run-${index++}`);
        writeCodexConfig(codexHome, { baseUrl: fake.url });
        const config = readFileSync(join(codexHome, 'config.toml'), 'utf8');
        const env = {
          PATH: process.env.PATH ?? '/usr/bin:/bin',
          LANG: 'C.UTF-8',
          HOME: join(codexHome, 'home'),
          CODEX_HOME: codexHome,
          FAKE_API_KEY: 'sk-fake-offline-0000000000000000',
          RUST_LOG: 'error',
          ...pass.env,
        };
        mkdirSync(env.HOME, { recursive: true });
        try {
          // No --upstream: the proxy sends Codex's requests where its provider's base_url pointed.
          const run = await pass.run(['run', '--state-dir', stateDir, '--', binary, ...execArgs({ prompt: 'Say hello.', cd: cwd })], {
            cwd,
            env,
            timeoutMs: 60_000,
          });
          assert.equal(run.code, 0, runOutcome(run));
          assert.match(run.stdout, /Hello through the proxy/);
          assert.equal(readFileSync(join(codexHome, 'config.toml'), 'utf8'), config, 'config.toml untouched');
          const read = await readProxyEvents(join(stateDir, 'events.jsonl'));
          assert.ok(read.ok);
          const events = read.value.filter((event) => event.format === 'openai-responses');
          assert.equal(events.length, fake.requests.filter((request) => request.kind === 'turn').length);
          assert.ok(events.length > 0 && events.every((event) => event.status === 200 && event.usage !== null), 'the turn went through the proxy');
        } finally {
          await fake.stop();
        }
      });
    },
  );
});
