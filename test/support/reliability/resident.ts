// The resident reader's probes as someone else (issue 40): what the shipped loader (`cli.js` and
// `cli-main.js` beside it, built by cliBundle.ts) does when its socket is another local user's,
// what it sends, and what the shipped reader does with a socket path too long, a client in another
// mount namespace, and clients that hold on. Each a process, as a person would run it.
import { agentEnvNames } from '../../../src/sessions/agents';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { residentKeyPath } from '../../../src/contracts/resident';

/** Another local user: `nobody`, which every Linux system has. */
export const OTHER_UID = 65534;

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * The loader run as a terminal runs it: `env` on top of this process's own (its secrets included).
 * Not spawnSync: a server in this process must go on answering meanwhile.
 */
export function runLoader(loader: string, args: readonly string[], env: NodeJS.ProcessEnv, wrap: readonly string[] = []): Promise<Run> {
  const [command, ...rest] = wrap.length > 0 ? [...wrap, process.execPath] : [process.execPath];
  const child = spawn(command!, [...rest, loader, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'], timeout: 60_000 });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  return new Promise((settle) => child.once('close', (code) => settle({ code, stdout, stderr })));
}

/**
 * Another user's process that made `folder` first (as one could under the temp folder, whose name
 * was known in advance) and listens in it as a reader would, with a key file of its own: it greets
 * every client, forges a reply (a terminal escape and exit code 0), and reports on its standard
 * output, base64, every byte a client sent it.
 */
export interface Impostor {
  socket: string;
  received(): string;
  stop(): Promise<void>;
}

export async function startImpostor(folder: string): Promise<Impostor> {
  const script = `
    const fs = require('node:fs'), net = require('node:net'), path = require('node:path');
    const folder = process.argv[1];
    fs.mkdirSync(folder, { mode: 0o755 });
    const socket = path.join(folder, 'r.sock');
    fs.writeFileSync(socket + '.key', 'k'.repeat(64), { mode: 0o644 });
    net.createServer((client) => {
      client.on('error', () => undefined);
      client.write(JSON.stringify({ hello: 'k'.repeat(64) }) + '\\n');
      client.on('data', (chunk) => {
        process.stdout.write(chunk.toString('base64') + '\\n');
        client.end(JSON.stringify({ started: true }) + '\\n' + JSON.stringify({ code: 0, out: '\\u001b]0;forged\\u0007forged\\n', err: '' }) + '\\n');
      });
    }).listen(socket, () => { fs.chmodSync(socket, 0o777); process.stdout.write('listening\\n'); });
  `;
  const child = spawn(process.execPath, ['-e', script, folder], { uid: OTHER_UID, gid: OTHER_UID, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  let errors = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString('utf8')));
  await new Promise<void>((settle, reject) => {
    const check = setInterval(() => {
      if (output.startsWith('listening\n')) {
        clearInterval(check);
        settle();
      }
    }, 10);
    child.once('exit', (code) => {
      clearInterval(check);
      reject(new Error(`the impostor exited (${code}): ${errors}`));
    });
  });
  return {
    socket: join(folder, 'r.sock'),
    received: () =>
      output
        .split('\n')
        .slice(1)
        .map((line) => Buffer.from(line, 'base64').toString('utf8'))
        .join(''),
    stop: () => stopChild(child),
  };
}

/**
 * A server of the test's own user in a private folder, with the key beside it, that greets as the
 * reader does and keeps the request it is sent: what the shipped client hands its reader.
 */
export async function startRecorder(folder: string): Promise<{ socket: string; requests: string[]; close(): void }> {
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  const socket = join(folder, 'r.sock');
  const key = 'r'.repeat(64);
  writeFileSync(residentKeyPath(socket), key, { mode: 0o600 });
  const requests: string[] = [];
  const server: Server = createServer((client) => {
    let text = '';
    client.on('error', () => undefined);
    // The agents' variables as the shipped reader lists them (its registry's).
    client.write(`${JSON.stringify({ hello: key, env: agentEnvNames() })}\n`);
    client.on('data', (chunk) => {
      text += chunk.toString('utf8');
      if (!text.includes('\n')) return;
      requests.push(text.slice(0, text.indexOf('\n')));
      client.end(`${JSON.stringify({ local: 'recorded' })}\n`);
    });
  });
  await new Promise<void>((settle) => server.listen(socket, settle));
  return { socket, requests, close: () => server.close() };
}

/** The shipped reader on `socket`, once it says it serves. */
export async function startReader(
  loader: string,
  socket: string,
  env: NodeJS.ProcessEnv = {},
): Promise<{ child: ChildProcess; stderr: () => string; stop(): Promise<number | null> }> {
  const child = spawn(process.execPath, [loader, 'resident', '--socket', socket], { env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
  let errors = '';
  child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString('utf8')));
  const exited = new Promise<number | null>((settle) => child.once('exit', settle));
  await new Promise<void>((settle, reject) => {
    child.stdout.once('data', (chunk: Buffer) => (chunk.toString('utf8').startsWith('Serving on') ? settle() : reject(new Error(chunk.toString('utf8')))));
    void exited.then((code) => reject(new Error(`the reader exited (${code}): ${errors}`)));
  });
  return {
    child,
    stderr: () => errors,
    stop: () => {
      child.stdin.end();
      return exited;
    },
  };
}

/** A connection kept open; `first` is the first line the server sends it, `closed` when it goes. */
export function holdConnection(socket: string): { client: Socket; first: Promise<string>; closed: Promise<void> } {
  const client = createConnection(socket);
  client.on('error', () => undefined);
  let text = '';
  const first = new Promise<string>((settle) => {
    client.on('data', (chunk) => {
      text += chunk.toString('utf8');
      if (text.includes('\n')) settle(text.slice(0, text.indexOf('\n')));
    });
    client.once('close', () => settle(text));
  });
  const closed = new Promise<void>((settle) => client.once('close', () => settle()));
  return { client, first, closed };
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((settle) => {
    child.once('exit', () => settle());
    child.kill('SIGTERM');
  });
}
