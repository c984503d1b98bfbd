// `ctxlens run --via`: a command pointed at a live proxy already running (the one Start Live Proxy
// runs in VS Code), or run as it is, with a note, when it cannot be: never sent to a port where
// nothing of ours answers, nor to a proxy that sends its API elsewhere.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { tempDir } from '../../support/tempDir';
import { run } from './support';

/** A `codex` that writes the arguments it got to a file, one per line. */
function fakeCodex(root: string): { command: string; argsSeen: () => string[] } {
  const command = join(root, 'codex');
  const seen = join(root, 'seen');
  writeFileSync(command, `#!/bin/sh\nprintf '%s\\n' "$@" > '${seen}'\n`);
  chmodSync(command, 0o755);
  return { command, argsSeen: () => readFileSync(seen, 'utf8').trim().split('\n') };
}

describe('ctxlens run --via', () => {
  let server: Server;
  let origin: string;
  before(async () => {
    server = createServer((socket) => socket.destroy());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  after(() => server.close());

  function codexHome(root: string, baseUrl: string): string {
    const home = join(root, 'codex-home');
    mkdirSync(home, { recursive: true });
    writeFileSync(join(home, 'config.toml'), `model_provider = "mine"\n[model_providers.mine]\nbase_url = "${baseUrl}/v1"\nwire_api = "responses"\n`);
    return home;
  }

  it("points Codex at the running proxy through -c, from the terminal's own config", async () => {
    const root = tempDir('cl-run-via-');
    const codex = fakeCodex(root);
    const env = { PATH: process.env.PATH, CODEX_HOME: codexHome(root, 'http://127.0.0.1:7000') };
    const ran = await run(['run', '--via', origin, '--via-upstream', 'http://127.0.0.1:7000', '--', codex.command, 'exec', 'hi'], env);
    assert.equal(ran.code, 0, ran.err);
    assert.equal(ran.err, '');
    assert.deepEqual(codex.argsSeen(), ['-c', `model_providers.mine.base_url="${origin}/v1"`, 'exec', 'hi']);
  });

  it('runs it as it is, and says why, when the proxy sends its API elsewhere, nothing answers, or the agent cannot be pointed', async () => {
    const root = tempDir('cl-run-via-');
    const codex = fakeCodex(root);
    const env = { PATH: process.env.PATH, CODEX_HOME: codexHome(root, 'http://127.0.0.1:7000') };
    const elsewhere = await run(['run', '--via', origin, '--via-upstream', 'https://api.openai.com', '--', codex.command, 'exec', 'hi'], env);
    assert.equal(elsewhere.code, 0);
    assert.match(
      elsewhere.err,
      /codex runs without the live proxy: its requests go to http:\/\/127\.0\.0\.1:7000 here; the proxy sends that API to https:\/\/api\.openai\.com/,
    );
    assert.deepEqual(codex.argsSeen(), ['exec', 'hi']);

    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const deadOrigin = `http://127.0.0.1:${(closed.address() as { port: number }).port}`;
    await new Promise((resolve) => closed.close(resolve));
    const dead = await run(['run', '--via', deadOrigin, '--', codex.command, 'resume'], env);
    assert.equal(dead.code, 0);
    assert.match(dead.err, /nothing answers on http:\/\/127\.0\.0\.1:\d+ \(the proxy stopped\?\)/);
    assert.deepEqual(codex.argsSeen(), ['resume']);

    const noProvider = await run(['run', '--via', origin, '--', codex.command, 'exec'], {
      PATH: process.env.PATH,
      CODEX_HOME: join(root, 'empty'),
      HOME: root,
    });
    assert.equal(noProvider.code, 0);
    assert.deepEqual(codex.argsSeen().slice(0, 1), ['-c'], 'the built-in provider is pointed through -c openai_base_url');
  });

  it("never sends them to a port another local user listens on (a stopped proxy's port, taken)", async (t) => {
    if (process.getuid?.() !== 0) return t.skip('needs root to listen as another user');
    const root = tempDir('cl-run-via-');
    const codex = fakeCodex(root);
    const listener = spawn(
      process.execPath,
      ['-e', "require('node:net').createServer(s=>s.destroy()).listen(0,'127.0.0.1',function(){console.log(this.address().port)})"],
      {
        uid: 65534,
        gid: 65534,
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    try {
      const port = await new Promise<string>((resolve) => listener.stdout.once('data', (chunk: Buffer) => resolve(chunk.toString().trim())));
      const env = { PATH: process.env.PATH, CODEX_HOME: codexHome(root, 'http://127.0.0.1:7000') };
      const ran = await run(['run', '--via', `http://127.0.0.1:${port}`, '--', codex.command, 'exec', 'hi'], env);
      assert.equal(ran.code, 0);
      assert.match(
        ran.err,
        new RegExp(`codex runs without the live proxy: http://127\\.0\\.0\\.1:${port} is another user's \\(uid 65534\\), not a proxy of yours`),
      );
      assert.deepEqual(codex.argsSeen(), ['exec', 'hi']);
    } finally {
      listener.kill();
    }
  });

  it('takes only a loopback origin, and no options of a proxy it does not start', async () => {
    for (const via of ['http://example.com:80', 'https://127.0.0.1:1', 'http://127.0.0.1', 'http://127.0.0.1:1/v1', 'not a url', 'http://user@127.0.0.1:1']) {
      const refused = await run(['run', '--via', via, '--', 'codex'], {});
      assert.equal(refused.code, 2, via);
      assert.match(refused.err, /--via must be http:\/\/127\.0\.0\.1:PORT/, via);
    }
    const withPort = await run(['run', '--via', origin, '--port', '9', '--', 'codex'], {});
    assert.equal(withPort.code, 2);
    assert.match(withPort.err, /--via uses a proxy already running: its options \(--port\) are its own/);
    const alone = await run(['run', '--via-upstream', 'http://127.0.0.1:1', '--', 'codex'], {});
    assert.equal(alone.code, 2);
    assert.match(alone.err, /--via-upstream goes with --via/);
  });
});
