// The live proxy with the real Gemini CLI (offline against the Gemini API stand-in), started as a
// person would: `ctxlens run -- gemini -p …` from the shipped bundle, on every runtime cold and
// warm, which points it at the proxy through GOOGLE_GEMINI_BASE_URL for that command. One prompt
// reads the same files again and again in a window small enough for the proxy to act: what the
// stand-in receives has the stale reads stubbed, the run finishes without an API error,
// consecutive requests keep their prefix, and each request's event carries its exact usage.
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { readProxyEvents } from '../../src/proxy/events';
import { runOutcome } from '../support/cliRun';
import { call, reply, startFakeGemini, text, type GeminiRequest, type LoggedRequest } from '../support/fake-gemini';
import { ensureGeminiCli, geminiEnv, promptArgs, writeGeminiSettings } from '../support/geminiCli';
import { eachShippedPass } from '../support/shippedCli';

/** Three files read three times each: Gemini CLI ends a turn that repeats one call five times (its loop detection). */
const FILES = ['alpha', 'beta', 'gamma'];
const READS = 9;
/** Gemini CLI's system prompt and tools are ~11k tokens and each read ~1.1k: the trigger (20k) is crossed after eight reads. */
const LIVE = ['--window', '40000', '--trigger-percent', '50', '--target-percent', '30', '--min-batch-tokens', '500'];

const bodyOf = (request: LoggedRequest): GeminiRequest => request.body as GeminiRequest;
const responses = (request: LoggedRequest): string[] =>
  bodyOf(request).contents.flatMap((content) =>
    (content.parts ?? []).flatMap((part) => (part.functionResponse ? [JSON.stringify(part.functionResponse.response)] : [])),
  );

describe('the live proxy with the real Gemini CLI (ctxlens run -- gemini)', () => {
  const root = mkdtempSync(join(tmpdir(), 'cl-proxy-gemini-'));
  const cwd = join(root, 'project');
  const bin = join(root, 'bin');

  before(() => {
    const entry = ensureGeminiCli();
    mkdirSync(cwd, { recursive: true });
    for (const name of FILES)
      writeFileSync(join(cwd, `${name}.txt`), Array.from({ length: 120 }, (_, line) => `${name}${line} = ${line} * 2 # the ${name} table\n`).join(''));
    // `gemini` as npm installs it: a command of that name on PATH (its own Node warnings are not ours to check).
    mkdirSync(bin, { recursive: true });
    writeFileSync(join(bin, 'gemini'), `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} --no-warnings ${JSON.stringify(entry)} "$@"\n`);
    chmodSync(join(bin, 'gemini'), 0o755);
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  it('stubs stale reads past the trigger, keeps the prefix and records exact usage, on every runtime cold and warm', { timeout: 600_000 }, async () => {
    let index = 0;
    await eachShippedPass(async (pass) => {
      const steps = [
        ...Array.from({ length: READS }, (_, read) => () => reply(call('read_file', { file_path: `${FILES[read % FILES.length]}.txt` }))),
        () => reply(text('Both tables look fine.')),
      ];
      const fake = await startFakeGemini({ scenario: { prompts: [{ prompt: 'Check the tables.', steps }] } });
      const home = join(root, `home-${index}`);
      const stateDir = join(root, `state-${index++}`);
      writeGeminiSettings(home);
      const env = { ...geminiEnv({ home, baseUrl: fake.url }), PATH: `${bin}:${process.env.PATH ?? '/usr/bin:/bin'}`, ...pass.env };
      try {
        // No --upstream: the proxy sends the requests where GOOGLE_GEMINI_BASE_URL pointed.
        const run = await pass.run(['run', '--state-dir', stateDir, ...LIVE, '--', 'gemini', ...promptArgs('Check the tables.')], {
          cwd,
          env,
          timeoutMs: 120_000,
        });
        assert.equal(run.code, 0, runOutcome(run));
        if (process.env.DEBUG_PROXY_IT)
          console.log(
            fake.requests.map((request) => `${request.kind} ${request.path} ${JSON.stringify(request.body).length}`).join('\n'),
            run.stderr.slice(0, 2000),
          );
        assert.match(run.stdout, /Both tables look fine/);
        assert.equal(fake.errors.length, 0, fake.errors.map((error) => error.message).join('\n'));
        const turns = fake.requests.filter((request) => request.kind === 'turn');
        const read = await readProxyEvents(join(stateDir, 'events.jsonl'));
        assert.ok(read.ok);
        const events = read.value.filter((event) => event.format === 'gemini');
        const said = events.map((event) => `${event.action}: ${event.reason ?? ''}`).join('\n');
        const served = fake.requests.filter((request) => request.kind !== 'other');
        assert.equal(events.length, served.length, `one event per request\n${said}`);
        assert.ok(
          events.every((event) => event.action !== 'failed-open' && event.status === 200),
          said,
        );
        assert.ok(
          events.some((event) => event.action === 'edited'),
          `the proxy acted\n${said}`,
        );

        const outputs = responses(turns.at(-1) as LoggedRequest);
        const stubs = outputs.filter((output) => output.includes('ctx-lens:') && !output.includes('# the '));
        assert.ok(stubs.length >= 2, `older reads are stubs with a recall ref (${stubs.length})\n${said}`);
        assert.ok(outputs.at(-1)?.includes('the gamma table'), 'the newest read is whole');

        let kept = 0;
        for (let at = 1; at < turns.length; at++) {
          const previous = bodyOf(turns[at - 1] as LoggedRequest).contents;
          const current = bodyOf(turns[at] as LoggedRequest).contents;
          if (JSON.stringify(current.slice(0, previous.length)) === JSON.stringify(previous)) kept += 1;
        }
        const share = kept / (turns.length - 1);
        console.log(
          `proxy with Gemini CLI [${pass.label}]: ${turns.length} turn requests, ${events.filter((event) => event.action === 'edited').length} batches, prefix kept in ${kept}/${turns.length - 1} (${(share * 100).toFixed(0)} %)`,
        );
        assert.ok(share >= 0.85, `prefix kept in ${kept} of ${turns.length - 1}`);

        // The exact usage of every request, cached tokens inside the prompt as the API counts them.
        events.forEach((event, at) => {
          const usage = served[at]?.usage;
          assert.ok(usage && event.usage, `usage of request ${at}`);
          assert.equal(event.usage.inputTokens + event.usage.cacheReadTokens, usage.promptTokenCount);
          assert.equal(event.usage.cacheReadTokens, usage.cachedContentTokenCount);
          assert.equal(event.usage.outputTokens, usage.candidatesTokenCount + usage.thoughtsTokenCount);
        });
      } finally {
        await fake.stop();
      }
    });
  });
});
