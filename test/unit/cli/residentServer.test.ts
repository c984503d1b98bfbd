import assert from 'node:assert/strict';
import { agentEnvNames } from '../../../src/sessions/agents';
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, lstatSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { connect, createConnection, createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { version } from '../../../package.json';
import { QUEUE_MAX, REQUEST_MAX_BYTES, residentKeyPath, SOCKET_PATH_MAX_BYTES } from '../../../src/contracts/resident';
import { main } from '../../../src/cli/main';
import { askResident } from '../../../src/cli/residentClient';
import { ownPlace } from '../../../src/cli/residentTrust';
import { ResidentServer, type RunCommand } from '../../../src/cli/residentServer';
import type { Output } from '../../../src/cli/stdio';
import { copyScenario } from './support';
import { exchange } from '../../support/socketExchange';
import { tempDir } from '../../support/tempDir';

class Collected implements Output {
  text = '';
  write(text: string): boolean {
    this.text += text;
    return true;
  }
}

const socketIn = (name: string): string => join(tempDir('cl-res-'), 'run', `${name}.sock`);

/** One request as the loader sends it; its printed output and exit code, or null when told to run it itself. */
async function ask(socket: string, argv: string[], cwd: string, env: Record<string, string | undefined>) {
  const out = new Collected();
  const err = new Collected();
  const code = await askResident(socket, { argv, cwd, env, out, err }, (path) => connect(path));
  return { code, out: out.text, err: err.text };
}

const request = (argv: string[], extra: Record<string, unknown> = {}): string =>
  `${JSON.stringify({ version, argv, cwd: tmpdir(), env: { HOME: tmpdir() }, place: ownPlace(), ...extra })}\n`;

/** What a client that is not ours gets for `payload`: the greeting, then one reply. */
function greetedThen(lines: string[], what: string): Record<string, unknown> {
  assert.equal(lines.length, 2, `${what}: ${lines.join(' | ')}`);
  assert.ok('hello' in (JSON.parse(lines[0] as string) as object), what);
  return JSON.parse(lines[1] as string) as Record<string, unknown>;
}

describe('the resident reader', () => {
  let server: ResidentServer;
  const logged: string[] = [];
  before(async () => {
    const started = await ResidentServer.listen(
      socketIn('main'),
      (argv, out, err, env) => main(argv, out, err, env),
      (line) => logged.push(line),
    );
    assert.ok(started.ok, started.ok ? '' : started.error);
    server = started.value;
  });
  after(() => server.close());

  it('prints exactly what a run in the client would, with its environment and working folder', async () => {
    const cwdBefore = process.cwd();
    const copy = copyScenario('commands');
    const env = { ...process.env, CLAUDE_CONFIG_DIR: copy.configDir };
    const local = { out: new Collected(), err: new Collected() };
    const localCode = await main(['inspect', copy.sessionId, '--json'], local.out, local.err, env);
    const served = await ask(server.socketPath, ['inspect', copy.sessionId, '--json'], tmpdir(), env);
    assert.equal(served.code, localCode);
    assert.equal(served.out, local.out.text);
    // A relative path resolves against the client's folder, not the server's.
    const relative = await ask(server.socketPath, ['inspect', basename(copy.transcript), '--json'], dirname(copy.transcript), env);
    assert.equal(relative.code, 0, relative.err);
    assert.equal((JSON.parse(relative.out) as { session: { id: string } }).session.id, copy.sessionId);
    // `sessions` lists the client's folder's sessions, from the client's CLAUDE_CONFIG_DIR.
    const listed = await ask(server.socketPath, ['sessions', '--all', '--json', '--agent', 'claude-code'], tmpdir(), env);
    assert.deepEqual(
      (JSON.parse(listed.out) as Array<{ id: string }>).map((session) => session.id),
      [copy.sessionId],
    );
    const elsewhere = await ask(server.socketPath, ['sessions', '--all', '--json', '--agent', 'claude-code'], tmpdir(), {
      ...env,
      CLAUDE_CONFIG_DIR: tempDir('cl-empty-'),
    });
    assert.deepEqual(JSON.parse(elsewhere.out), []);
    // The server's own environment and folder are back as they were.
    assert.equal(process.env.CLAUDE_CONFIG_DIR, undefined);
    assert.equal(process.cwd(), cwdBefore);
  });

  it("keeps the command's exit code and error output", async () => {
    const missing = await ask(server.socketPath, ['inspect', '/nonexistent.jsonl'], tmpdir(), process.env);
    assert.equal(missing.code, 1);
    assert.equal(missing.out, '');
    assert.equal(missing.err, 'ctxlens inspect: no such transcript: /nonexistent.jsonl\n');
  });

  it('refuses what is not a request, and goes on serving', async () => {
    const refusals: Array<[string, string | Buffer]> = [
      ['not JSON', 'hello\n'],
      ['invalid UTF-8', Buffer.from([0xff, 0xfe, 0x0a])],
      ['the wrong shape', `${JSON.stringify({ argv: 'inspect' })}\n`],
      ['an empty command line', request([])],
      ['a command that writes', request(['connect', '--dry-run'])],
      ['a command line of options', request(['--version'])],
      ['another version', request(['sessions'], { version: '0.0.0-other' })],
      ['no place', request(['sessions'], { place: undefined })],
      ['another mount namespace', request(['sessions'], { place: { ...ownPlace(), mnt: 'mnt:[1]' } })],
      ['another root', request(['sessions'], { place: { ...ownPlace(), root: '0:0' } })],
      ['nesting', `${'['.repeat(50_000)}\n`],
    ];
    for (const [what, payload] of refusals) {
      assert.ok('local' in greetedThen(await exchange(server.socketPath, payload), what), what);
    }
    // A line past the limit is cut off at it, not collected to its end.
    const huge = await exchange(server.socketPath, Buffer.alloc(REQUEST_MAX_BYTES + 10, 0x61));
    assert.deepEqual(greetedThen(huge, 'too large'), { local: 'request too large' });
    const served = await ask(server.socketPath, ['sessions', '--all', '--json', '--config-dir', tempDir('cl-none-')], tmpdir(), process.env);
    assert.equal(served.code, 0, served.err);
  });
});

describe('the resident reader under load and in odd places', () => {
  it('runs one command at a time, says busy past its queue, and skips clients that left', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((settle) => (release = settle));
    const ran: string[] = [];
    const run: RunCommand = async (argv, out) => {
      ran.push(argv.join(' '));
      if (argv[1] === 'slow') await gate;
      out.write(`${argv.join(' ')}\n`);
      return 0;
    };
    const started = await ResidentServer.listen(socketIn('queue'), run, () => undefined);
    assert.ok(started.ok);
    const server = started.value;
    try {
      const slow = ask(server.socketPath, ['inspect', 'slow'], tmpdir(), {});
      await waitFor(() => ran.length === 1);
      const queued = Array.from({ length: QUEUE_MAX - 1 }, (_, index) => ask(server.socketPath, ['inspect', `queued-${index}`], tmpdir(), {}));
      // One more client asks, then gives up while waiting: its request is never run.
      const gone = connect(server.socketPath);
      gone.on('error', () => undefined);
      gone.on('connect', () => gone.write(request(['inspect', 'gone'])));
      await waitFor(() => server.waiting === QUEUE_MAX);
      const busy = await ask(server.socketPath, ['inspect', 'one-too-many'], tmpdir(), {});
      assert.equal(busy.code, null, 'past the queue the client runs it itself');
      gone.destroy();
      await waitFor(() => server.waiting === QUEUE_MAX - 1);
      release();
      assert.deepEqual(await slow, { code: 0, out: 'inspect slow\n', err: '' });
      const answers = await Promise.all(queued);
      assert.deepEqual(
        answers.map((answer) => answer.out),
        Array.from({ length: QUEUE_MAX - 1 }, (_, index) => `inspect queued-${index}\n`),
      );
      assert.ok(!ran.includes('inspect gone'));
      assert.ok(!ran.includes('inspect one-too-many'));
    } finally {
      await server.close();
    }
  });

  it("refuses a folder others may enter, replaces a stale socket but not another reader's, and will not take the place of a file", async () => {
    const path = socketIn('folder');
    mkdirSync(dirname(path), { recursive: true });
    // A folder of the person's that others may enter is refused, its mode left as it is.
    chmodSync(dirname(path), 0o755);
    const open = await ResidentServer.listen(
      path,
      () => Promise.resolve(0),
      () => undefined,
    );
    assert.equal(open.ok, false);
    assert.match(open.ok ? '' : open.error, /is open to other users \(mode 755\).*chmod 700/);
    assert.equal(statSync(dirname(path)).mode & 0o777, 0o755);
    chmodSync(dirname(path), 0o700);
    // A socket another reader still answers on is left to it.
    const live = createServer().listen(path);
    await new Promise((settle) => live.on('listening', settle));
    const second = await ResidentServer.listen(
      path,
      () => Promise.resolve(0),
      () => undefined,
    );
    assert.equal(second.ok, false);
    assert.match(second.ok ? '' : second.error, /another resident reader serves/);
    await new Promise((settle) => live.close(settle));
    // A socket left by a reader that was killed (the file stays, no one answers) is replaced.
    spawnSync(process.execPath, ['-e', `require('node:net').createServer().listen(${JSON.stringify(path)}, () => process.kill(process.pid, 'SIGKILL'))`]);
    assert.ok(lstatSync(path).isSocket());
    const first = await ResidentServer.listen(
      path,
      () => Promise.resolve(0),
      () => undefined,
    );
    assert.ok(first.ok, first.ok ? '' : first.error);
    assert.equal(statSync(dirname(path)).mode & 0o777, 0o700);
    await first.value.close();
    writeFileSync(path, 'not a socket');
    const refused = await ResidentServer.listen(
      path,
      () => Promise.resolve(0),
      () => undefined,
    );
    assert.equal(refused.ok, false);
    assert.match(refused.ok ? '' : refused.error, /exists and is not a socket/);
  });
});

describe('the resident reader against clients that are not its own', () => {
  it('greets with the key only its user can read, and takes it away when it stops', async () => {
    const started = await ResidentServer.listen(
      socketIn('key'),
      () => Promise.resolve(0),
      () => undefined,
    );
    assert.ok(started.ok);
    const keyPath = residentKeyPath(started.value.socketPath);
    assert.equal(statSync(keyPath).mode & 0o777, 0o600);
    const key = readFileSync(keyPath, 'utf8');
    assert.match(key, /^[0-9a-f]{64}$/);
    const lines = await exchange(started.value.socketPath, request(['sessions']));
    // The agents' own variables, by their adapters: what the client is to send besides the neutral ones.
    assert.deepEqual(JSON.parse(lines[0] as string), { hello: key, env: agentEnvNames() });
    await started.value.close();
    assert.equal(existsSync(keyPath), false);
  });

  it('refuses a socket path Node would cut short, naming the limit', async () => {
    const deep = join(tempDir('cl-res-'), 'd'.repeat(SOCKET_PATH_MAX_BYTES), 'r.sock');
    const refused = await ResidentServer.listen(
      deep,
      () => Promise.resolve(0),
      () => undefined,
    );
    assert.equal(refused.ok, false);
    assert.match(refused.ok ? '' : refused.error, new RegExp(`bytes long: a socket's path can have at most ${SOCKET_PATH_MAX_BYTES}`));
    assert.equal(existsSync(dirname(deep)), false, 'nothing made');
  });

  it('runs a command with only the variables the commands read, whatever the client sent', async () => {
    let seen: { given: Record<string, string>; process: string[] } | undefined;
    const started = await ResidentServer.listen(
      socketIn('env'),
      (_argv, _out, _err, env) => {
        seen = { given: { ...env }, process: Object.keys(process.env) };
        return Promise.resolve(0);
      },
      () => undefined,
    );
    assert.ok(started.ok);
    await exchange(started.value.socketPath, request(['sessions'], { env: { HOME: '/h', ANTHROPIC_API_KEY: 'sk-ant-secret', PATH: '/bin' } }));
    await started.value.close();
    assert.deepEqual(seen?.given, { HOME: '/h' });
    assert.deepEqual(seen?.process, ['HOME']);
  });

  it('drops a connection that has not sent its request by the deadline, however it trickles, and holds only so many', { timeout: 30_000 }, async () => {
    const logged: string[] = [];
    const started = await ResidentServer.listen(
      socketIn('limits'),
      () => Promise.resolve(0),
      (line) => logged.push(line),
      { deadlineMs: 400, drainMs: 200, connectionsMax: 3 },
    );
    assert.ok(started.ok);
    const server = started.value;
    try {
      const open: Socket[] = [];
      // A client that never closes its side after the reply: the server does, after a while.
      const stubborn = createConnection({ path: server.socketPath, allowHalfOpen: true });
      stubborn.on('error', () => undefined);
      stubborn.on('connect', () => stubborn.write('not a request\n'));
      await waitFor(() => logged.some((line) => line.includes('not JSON')));
      await waitFor(() => server.connected === 0);
      stubborn.destroy();
      const firstLines = await Promise.all(Array.from({ length: 3 }, () => firstLine(server.socketPath, open)));
      assert.ok(
        firstLines.every((text) => text.startsWith('{"hello":')),
        firstLines.join(' | '),
      );
      // One over the cap: told busy at once, not greeted.
      assert.equal(await firstLine(server.socketPath, open), '{"local":"busy"}');
      // A byte every 100 ms, never a whole line: dropped at the deadline all the same.
      const trickling = open[0]!;
      const drip = setInterval(() => trickling.write('x'), 100);
      const since = performance.now();
      await new Promise((settle) => trickling.once('close', settle));
      clearInterval(drip);
      assert.ok(performance.now() - since < 1000, `closed after ${Math.round(performance.now() - since)} ms`);
      await waitFor(() => server.connected === 0);
      assert.ok(logged.filter((line) => line.includes('no request in time')).length >= 3, logged.join('\n'));
      // Their places are free again.
      assert.match(await firstLine(server.socketPath, open), /^\{"hello":/);
      open.forEach((socket) => socket.destroy());
    } finally {
      await server.close();
    }
  });
});

/** Connects, keeps the socket open (in `open`), and resolves with the first line the server sends. */
function firstLine(path: string, open: Socket[]): Promise<string> {
  return new Promise((settle) => {
    const socket = connect(path);
    open.push(socket);
    let text = '';
    socket.on('error', () => undefined);
    socket.on('data', (chunk) => {
      text += chunk.toString('utf8');
      if (text.includes('\n')) settle(text.slice(0, text.indexOf('\n')));
    });
    // Closed without a line: what came, so that the assertion says so rather than the test hanging.
    socket.once('close', () => settle(text));
  });
}

async function waitFor(condition: () => boolean): Promise<void> {
  for (let waited = 0; !condition(); waited += 5) {
    if (waited > 5000) throw new Error('condition not met in 5 s');
    await new Promise((settle) => setTimeout(settle, 5));
  }
}
