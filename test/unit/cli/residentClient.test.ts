import assert from 'node:assert/strict';
import { agentEnvNames } from '../../../src/sessions/agents';
import { writeFileSync } from 'node:fs';
import { connect, createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { RESIDENT_ENV, RESIDENT_ENV_NAMES, residentKeyPath } from '../../../src/contracts/resident';
import { askResident, residentSocketFor } from '../../../src/cli/residentClient';
import { tempDir } from '../../support/tempDir';

const KEY = 'k'.repeat(64);

/**
 * A server in a private folder of the test's own that greets with `hello` (the key beside its
 * socket, unless told otherwise) and answers every request with `respond`; `received` is every
 * byte any client sent it.
 */
async function fakeServer(
  respond: (socket: Socket, request: string) => void,
  hello: string | null = KEY,
): Promise<{ path: string; received: () => string; close(): void }> {
  const path = join(tempDir('cl-resc-'), 's.sock');
  writeFileSync(residentKeyPath(path), KEY, { mode: 0o600 });
  let received = '';
  const server = createServer((socket) => {
    // As the reader greets: with its agents' variables.
    if (hello !== null) socket.write(line({ hello, env: agentEnvNames() }));
    socket.on('data', (chunk) => (received += chunk.toString('utf8')));
    let text = '';
    socket.on('error', () => undefined);
    socket.on('data', (chunk) => {
      text += chunk.toString('utf8');
      if (text.includes('\n')) respond(socket, text.slice(0, text.indexOf('\n')));
    });
  });
  await new Promise<void>((settle) => server.listen(path, settle));
  return { path, received: () => received, close: () => server.close() };
}

async function ask(
  path: string,
  timeouts = { acceptMs: 2000, replyMs: 2000 },
  env: Record<string, string | undefined> = { HOME: '/home/me', UNSET: undefined },
) {
  let out = '';
  let err = '';
  const place = { mnt: 'mnt:[1]', root: '1:2' };
  const code = await askResident(
    path,
    { argv: ['inspect', 'x'], cwd: '/somewhere', env, place, out: { write: (text) => (out += text) }, err: { write: (text) => (err += text) } },
    (socket) => connect(socket),
    timeouts,
  );
  return { code, out, err };
}

function line(value: unknown): string {
  return `${JSON.stringify(value)}\n`;
}

describe('the resident reader client', () => {
  it('asks only for the commands that only read, and only where a socket is named', () => {
    assert.equal(residentSocketFor(['inspect', 'x'], { [RESIDENT_ENV]: '/run/s.sock' }), '/run/s.sock');
    assert.equal(residentSocketFor(['sessions'], { [RESIDENT_ENV]: '/run/s.sock' }), '/run/s.sock');
    for (const argv of [['compact', 'x'], ['hook', 'pre-compact'], ['connect'], ['resident', '--socket', 'x'], []])
      assert.equal(residentSocketFor(argv, { [RESIDENT_ENV]: '/run/s.sock' }), undefined, argv.join(' '));
    assert.equal(residentSocketFor(['inspect', 'x'], {}), undefined);
    assert.equal(residentSocketFor(['inspect', 'x'], { [RESIDENT_ENV]: '' }), undefined);
  });

  it('sends its command line, folder and environment, and prints a reply that comes in pieces', async () => {
    const big = 'x'.repeat(3 * 1024 * 1024);
    let asked: unknown;
    const server = await fakeServer((socket, request) => {
      asked = JSON.parse(request);
      const reply = line({ started: true }) + line({ code: 3, out: `${big}\n`, err: 'warning\n' });
      // Split mid-line and mid-character boundary alike.
      for (let at = 0; at < reply.length; at += 65_521) socket.write(reply.slice(at, at + 65_521));
      socket.end();
    });
    const answer = await ask(server.path);
    server.close();
    assert.equal(answer.code, 3);
    assert.equal(answer.out, `${big}\n`);
    assert.equal(answer.err, 'warning\n');
    assert.deepEqual(
      { ...(asked as object), version: 'v' },
      { version: 'v', argv: ['inspect', 'x'], cwd: '/somewhere', env: { HOME: '/home/me' }, place: { mnt: 'mnt:[1]', root: '1:2' } },
    );
  });

  it('sends only the variables inspect and sessions read: no API key, no token, nothing else of the terminal', async () => {
    let asked: { env: Record<string, string> } | undefined;
    const server = await fakeServer((socket, request) => {
      asked = JSON.parse(request) as typeof asked;
      socket.end(line({ started: true }) + line({ code: 0, out: '', err: '' }));
    });
    const env = {
      HOME: '/home/me',
      CLAUDE_CONFIG_DIR: '/cfg',
      CODEX_HOME: '/codex',
      XDG_DATA_HOME: '/data',
      ANTHROPIC_API_KEY: 'sk-ant-secret',
      OPENAI_API_KEY: 'sk-secret',
      GITHUB_TOKEN: 'ghp_secret',
      AWS_SECRET_ACCESS_KEY: 'secret',
      PATH: '/bin',
      SSH_AUTH_SOCK: '/tmp/agent',
    };
    assert.equal((await ask(server.path, undefined, env)).code, 0);
    server.close();
    assert.deepEqual(asked?.env, { HOME: '/home/me', CLAUDE_CONFIG_DIR: '/cfg', CODEX_HOME: '/codex', XDG_DATA_HOME: '/data' });
    assert.ok(!server.received().includes('secret'));
    for (const name of Object.keys(asked?.env ?? {})) assert.ok(RESIDENT_ENV_NAMES.has(name) || agentEnvNames().includes(name), name);
  });

  it('sends nothing to a server that does not greet with the key beside its socket, and says so', async () => {
    for (const [what, hello] of [
      ['another key', 'x'.repeat(64)],
      ['no greeting', null],
      ['an empty key', ''],
    ] as const) {
      const server = await fakeServer((socket) => socket.end(line({ started: true }) + line({ code: 0, out: 'forged\u001b]0;owned\u0007', err: '' })), hello);
      const answer = await ask(server.path, { acceptMs: 300, replyMs: 300 });
      server.close();
      assert.equal(answer.code, null, what);
      assert.equal(answer.out, '', what);
      assert.equal(server.received(), '', `${what}: nothing sent`);
      if (hello !== null) assert.match(answer.err, /is not your resident reader; running here/, what);
    }
  });

  it('runs the command itself whenever the server cannot answer cleanly', async () => {
    const cases: Array<[string, (socket: Socket) => void]> = [
      ['told to', (socket) => socket.end(line({ local: 'busy' }))],
      ['a garbage reply', (socket) => socket.end('HTTP/1.1 400 Bad Request\r\n\r\n')],
      ['a reply before it started', (socket) => socket.end(line({ code: 0, out: 'early', err: '' }))],
      ['greeted twice', (socket) => socket.end(line({ hello: KEY }))],
      ['closed after starting', (socket) => socket.end(line({ started: true }))],
      ['started twice', (socket) => socket.end(line({ started: true }) + line({ started: true }))],
      ['a reply of the wrong shape', (socket) => socket.end(line({ started: true }) + line({ code: 'zero', out: '', err: '' }))],
      ['cut off', (socket) => socket.destroy()],
    ];
    for (const [what, respond] of cases) {
      const server = await fakeServer(respond);
      const answer = await ask(server.path);
      server.close();
      assert.deepEqual(answer, { code: null, out: '', err: '' }, what);
    }
    assert.deepEqual(await ask(join(tmpdir(), 'no-such-folder', 's.sock')), { code: null, out: '', err: '' }, 'no server');
  });

  it('gives up on a server that does not start its request, or does not finish it, in time', async () => {
    const silent = await fakeServer(() => undefined);
    const started = Date.now();
    assert.equal((await ask(silent.path, { acceptMs: 100, replyMs: 5000 })).code, null);
    assert.ok(Date.now() - started < 2000);
    silent.close();
    const stuck = await fakeServer((socket) => socket.write(line({ started: true })));
    assert.equal((await ask(stuck.path, { acceptMs: 5000, replyMs: 100 })).code, null);
    stuck.close();
  });
});
