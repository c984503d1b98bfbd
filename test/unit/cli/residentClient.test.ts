import assert from 'node:assert/strict';
import { connect, createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { RESIDENT_ENV } from '../../../src/contracts/resident';
import { askResident, residentSocketFor } from '../../../src/cli/residentClient';
import { tempDir } from '../../support/tempDir';

/** A server that answers every connection with `respond`, for as long as the test needs it. */
async function fakeServer(respond: (socket: Socket, request: string) => void): Promise<{ path: string; close(): void }> {
  const path = join(tempDir('cl-resc-'), 's.sock');
  const server = createServer((socket) => {
    let text = '';
    socket.on('error', () => undefined);
    socket.on('data', (chunk) => {
      text += chunk.toString('utf8');
      if (text.includes('\n')) respond(socket, text.slice(0, text.indexOf('\n')));
    });
  });
  await new Promise<void>((settle) => server.listen(path, settle));
  return { path, close: () => server.close() };
}

async function ask(path: string, timeouts = { acceptMs: 2000, replyMs: 2000 }) {
  let out = '';
  let err = '';
  const code = await askResident(path, { argv: ['inspect', 'x'], cwd: '/somewhere', env: { HOME: '/home/me', UNSET: undefined }, out: { write: (text) => (out += text) }, err: { write: (text) => (err += text) } }, (socket) => connect(socket), timeouts);
  return { code, out, err };
}

const line = (value: unknown): string => `${JSON.stringify(value)}\n`;

describe('the resident reader client', () => {
  it('asks only for the commands that only read, and only where a socket is named', () => {
    assert.equal(residentSocketFor(['inspect', 'x'], { [RESIDENT_ENV]: '/run/s.sock' }), '/run/s.sock');
    assert.equal(residentSocketFor(['sessions'], { [RESIDENT_ENV]: '/run/s.sock' }), '/run/s.sock');
    for (const argv of [['compact', 'x'], ['hook', 'pre-compact'], ['connect'], ['resident', '--socket', 'x'], []]) assert.equal(residentSocketFor(argv, { [RESIDENT_ENV]: '/run/s.sock' }), undefined, argv.join(' '));
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
    assert.deepEqual({ ...(asked as object), version: 'v' }, { version: 'v', argv: ['inspect', 'x'], cwd: '/somewhere', env: { HOME: '/home/me' } });
  });

  it('runs the command itself whenever the server cannot answer cleanly', async () => {
    const cases: Array<[string, (socket: Socket) => void]> = [
      ['told to', (socket) => socket.end(line({ local: 'busy' }))],
      ['a garbage reply', (socket) => socket.end('HTTP/1.1 400 Bad Request\r\n\r\n')],
      ['a reply before it started', (socket) => socket.end(line({ code: 0, out: 'early', err: '' }))],
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
