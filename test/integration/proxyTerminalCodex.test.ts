// Start Live Proxy's way for Codex CLI in a new terminal, which no variable points: the script the
// host writes first on the terminal's PATH runs the shipped bundle's `ctxlens run --via`, which
// runs the real Codex, found further down PATH, with a `-c` override of its provider's base URL.
// On every runtime, cold and warm: a `codex exec` typed in such a terminal goes through the proxy
// that runs already (its event carries the exact usage) and config.toml is left as it was. Then,
// on the first runtime, each way it runs without the proxy, still answered: the proxy stopped (the
// script runs Codex as it is), it crashed (nothing answers on its port), or the terminal's Codex
// goes to another provider than the one the proxy sends Codex's API to.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { makeShimFolder, writeShimScripts, type ShimCommand } from '../../src/host/proxy/commandShims';
import { readProxyEvents } from '../../src/proxy/events';
import { runCli, runOutcome } from '../support/cliRun';
import { ensureCodexCli, execArgs, writeCodexConfig } from '../support/codexCli';
import { message, reply, startFakeOpenAI } from '../support/fake-openai';
import { eachShippedPass, proxyListening, shippedBundle } from '../support/shippedCli';

const PROMPTS = ['Say hello.', 'Say hello again.', 'Say hello once more.', 'Say hello a last time.'];

describe('Codex CLI in a terminal Start Live Proxy prepared (the real CLI, the shipped bundle)', () => {
  const root = mkdtempSync(join(tmpdir(), 'cl-proxy-terminal-codex-'));
  after(() => rmSync(root, { recursive: true, force: true }));

  it('goes through the running proxy, and runs without it, with a note, when it cannot', { timeout: 600_000 }, async () => {
    const binary = ensureCodexCli();
    // The real command under its own name, as a person's PATH has it.
    const bin = join(root, 'bin');
    mkdirSync(bin, { recursive: true });
    symlinkSync(binary, join(bin, 'codex'));
    const cwd = join(root, 'project');
    mkdirSync(cwd, { recursive: true });
    let index = 0;
    await eachShippedPass(async (pass) => {
      const first = index === 0;
      const fake = await startFakeOpenAI({
        scenario: { prompts: PROMPTS.map((prompt) => ({ prompt, steps: [() => reply(message(`Hello: ${prompt}`))] })) },
      });
      const codexHome = join(root, `codex-${index}`);
      const stateDir = join(root, `state-${index++}`);
      writeCodexConfig(codexHome, { baseUrl: fake.url });
      const config = readFileSync(join(codexHome, 'config.toml'), 'utf8');
      const proxy = pass.start(['proxy', '--upstream', fake.url, '--state-dir', stateDir]);
      try {
        const url = await proxyListening(proxy);
        const made = await makeShimFolder(join(root, `storage-${index}`));
        assert.ok(made.ok);
        const folder = made.value;
        const runtime = { execPath: pass.runtime.node, isElectron: false, cli: shippedBundle() };
        const command: ShimCommand = { name: 'codex', agent: 'Codex CLI', upstream: fake.url };
        const home = join(codexHome, 'home');
        mkdirSync(home, { recursive: true });
        const env = {
          PATH: `${folder}:${bin}:${process.env.PATH ?? '/usr/bin:/bin'}`,
          LANG: 'C.UTF-8',
          HOME: home,
          CODEX_HOME: codexHome,
          FAKE_API_KEY: 'sk-fake-offline-0000000000000000',
          RUST_LOG: 'error',
          ...pass.env,
        };
        // As typed in the terminal: `codex exec …`, resolved by the shell through PATH.
        const typed = (prompt: string) => runCli('/bin/sh', ['-c', 'codex "$@"', 'sh', ...execArgs({ prompt, cd: cwd })], { cwd, env, timeoutMs: 120_000 });
        const responsesEvents = async (): Promise<number> => {
          const read = await readProxyEvents(join(stateDir, 'events.jsonl'));
          assert.ok(read.ok);
          return read.value.filter((event) => event.format === 'openai-responses' && event.status === 200 && event.usage !== null).length;
        };

        assert.ok((await writeShimScripts(folder, [command], runtime, url)).ok);
        const through = await typed(PROMPTS[0] as string);
        assert.equal(through.code, 0, `[${pass.label}] ${runOutcome(through)}`);
        assert.match(through.stdout, /Hello: Say hello\./);
        assert.doesNotMatch(through.stderr, /without the live proxy/);
        assert.equal(await responsesEvents(), 1, `[${pass.label}] the turn went through the proxy, with its usage`);
        assert.equal(readFileSync(join(codexHome, 'config.toml'), 'utf8'), config, 'config.toml untouched');
        if (!first) return;

        // Another provider than the proxy's for Codex's API: as it is, said.
        assert.ok((await writeShimScripts(folder, [{ ...command, upstream: 'https://api.openai.com' }], runtime, url)).ok);
        const elsewhere = await typed(PROMPTS[1] as string);
        assert.equal(elsewhere.code, 0, runOutcome(elsewhere));
        assert.match(
          elsewhere.stderr,
          /codex runs without the live proxy: its requests go to http:\/\/127\.0\.0\.1:\d+ here; the proxy sends that API to https:\/\/api\.openai\.com/,
        );
        assert.equal(await responsesEvents(), 1);

        // Stop Live Proxy: the script runs Codex as it is, silently.
        assert.ok((await writeShimScripts(folder, [command], runtime, null)).ok);
        const stopped = await typed(PROMPTS[2] as string);
        assert.equal(stopped.code, 0, runOutcome(stopped));
        assert.match(stopped.stdout, /Hello: Say hello once more\./);
        assert.equal(stopped.stderr.includes('live proxy'), false, stopped.stderr);
        assert.equal(await responsesEvents(), 1);

        // The proxy gone without a stop (the window crashed): nothing answers on its port.
        assert.ok((await writeShimScripts(folder, [command], runtime, url)).ok);
        proxy.kill('SIGINT');
        await new Promise((resolve) => (proxy.exitCode === null ? proxy.once('exit', resolve) : resolve(undefined)));
        const crashed = await typed(PROMPTS[3] as string);
        assert.equal(crashed.code, 0, runOutcome(crashed));
        assert.match(crashed.stderr, /codex runs without the live proxy: nothing answers on http:\/\/127\.0\.0\.1:\d+ \(the proxy stopped\?\)/);
        assert.equal(fake.errors.length, 0, fake.errors.map((error) => error.message).join('\n'));
      } finally {
        if (proxy.exitCode === null) proxy.kill('SIGINT');
        await fake.stop();
      }
    });
  });
});
