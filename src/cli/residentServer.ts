// The server side of the resident reader (contracts/resident.ts): one process that keeps the CLI
// loaded and warm and runs the read-only commands its clients hand it. It runs one at a time, as the
// client: that request's working folder and environment become the process's own while it runs
// (readers default to process.env, the home folder comes from $HOME, relative paths resolve against
// the working folder), and both are put back after. Anything that is not a well-formed request from
// within the user's private folder is refused; a client that cannot be served is told to run the
// command itself, which it can always do.
import { chmod, lstat, mkdir, unlink } from 'node:fs/promises';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { dirname } from 'node:path';
import { version } from '../../package.json';
import type { Result } from '../sessions/types';
import { parseJson } from '../protocol/parseJson';
import { QUEUE_MAX, REPLY_OUTPUT_MAX_CHARS, REQUEST_MAX_BYTES, RESIDENT_COMMANDS, residentRequestSchema, type ResidentReply, type ResidentRequest } from '../contracts/residentWire';
import type { Output } from './stdio';

type Outcome<T> = Result<T, string>;
const ok = <T>(value: T): Outcome<T> => ({ ok: true, value });
const err = <T>(error: string): Outcome<T> => ({ ok: false, error });

/** What runs a command line: the CLI's `main`. */
export type RunCommand = (argv: readonly string[], out: Output, err: Output, env: Readonly<Record<string, string>>) => Promise<number>;

/** A request line must be in within this: a client that connects and says nothing is dropped. */
const REQUEST_TIMEOUT_MS = 5000;

interface Job {
  request: ResidentRequest;
  socket: Socket;
}

export class ResidentServer {
  private readonly queue: Job[] = [];
  private running = false;
  /** Requests served and refused, for the log line at exit. */
  readonly counts = { served: 0, local: 0, refused: 0 };

  private constructor(
    private readonly server: Server,
    readonly socketPath: string,
    private readonly run: RunCommand,
    private readonly log: (line: string) => void,
  ) {}

  /** Listens on `socketPath` once its folder is private to this user; a stale socket there is replaced. */
  static async listen(socketPath: string, run: RunCommand, log: (line: string) => void): Promise<Outcome<ResidentServer>> {
    const folder = await privateFolder(dirname(socketPath));
    if (!folder.ok) return folder;
    try {
      const existing = await lstat(socketPath).catch(() => null);
      if (existing !== null && !existing.isSocket()) return err(`${socketPath} exists and is not a socket`);
      // A socket someone still answers on is another reader's: taking its place would orphan it.
      if (existing !== null && (await answers(socketPath))) return err(`another resident reader serves ${socketPath}`);
      if (existing !== null) await unlink(socketPath);
    } catch (error) {
      return err(`cannot replace ${socketPath}: ${(error as Error).message}`);
    }
    const server = createServer();
    const resident = new ResidentServer(server, socketPath, run, log);
    server.on('connection', (socket) => resident.accept(socket));
    return new Promise((settle) => {
      server.once('error', (error) => settle(err(`cannot listen on ${socketPath}: ${error.message}`)));
      server.listen(socketPath, () => settle(ok(resident)));
    });
  }

  /** Requests waiting behind the one running. */
  get waiting(): number {
    return this.queue.length;
  }

  /** Stops listening and removes the socket; a running command finishes, queued ones run locally. */
  async close(): Promise<void> {
    for (const job of this.queue.splice(0)) this.reply(job.socket, { local: 'the resident reader is stopping' });
    await new Promise<void>((settle) => this.server.close(() => settle()));
    await unlink(this.socketPath).catch(() => undefined);
  }

  private accept(socket: Socket): void {
    const chunks: Buffer[] = [];
    let size = 0;
    socket.setTimeout(REQUEST_TIMEOUT_MS, () => this.refuse(socket, 'no request in time'));
    socket.on('error', () => socket.destroy());
    const onData = (chunk: Buffer): void => {
      const end = chunk.indexOf(0x0a);
      size += end === -1 ? chunk.length : end;
      if (size > REQUEST_MAX_BYTES) return this.refuse(socket, 'request too large');
      if (end === -1) return void chunks.push(chunk);
      chunks.push(chunk.subarray(0, end));
      socket.off('data', onData);
      socket.setTimeout(0);
      this.take(socket, Buffer.concat(chunks).toString('utf8'));
    };
    socket.on('data', onData);
  }

  private take(socket: Socket, line: string): void {
    const parsed = parseJson(line);
    if (parsed === undefined) return this.refuse(socket, 'request is not JSON');
    const request = residentRequestSchema.safeParse(parsed);
    if (!request.success) return this.refuse(socket, 'request is not a command line');
    // Only what reads: the client runs everything else itself, and so must anyone else who connects.
    if (!RESIDENT_COMMANDS.has(request.data.argv[0] as string)) return this.refuse(socket, 'not a command the resident reader runs');
    if (request.data.version !== version) {
      this.counts.local++;
      return this.reply(socket, { local: `this reader is version ${version}` });
    }
    if (this.queue.length >= QUEUE_MAX) {
      this.counts.local++;
      return this.reply(socket, { local: 'busy' });
    }
    const job = { request: request.data, socket };
    this.queue.push(job);
    // A client that gave up waiting runs the command itself: its request leaves the queue.
    socket.once('close', () => {
      const at = this.queue.indexOf(job);
      if (at !== -1) this.queue.splice(at, 1);
    });
    void this.pump();
  }

  private async pump(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      for (let job = this.queue.shift(); job !== undefined; job = this.queue.shift()) {
        if (job.socket.destroyed) continue;
        job.socket.write(`${JSON.stringify({ started: true })}\n`);
        const reply = await this.runAs(job.request);
        if ('local' in reply) this.counts.local++;
        else this.counts.served++;
        this.reply(job.socket, reply);
      }
    } finally {
      this.running = false;
    }
  }

  /** Runs one command line as the client would have run it: its folder, its environment. */
  private async runAs(request: ResidentRequest): Promise<ResidentReply> {
    const own = { cwd: process.cwd(), env: { ...process.env } };
    try {
      process.chdir(request.cwd);
    } catch {
      return { local: 'the working folder cannot be entered here' };
    }
    replaceEnv(request.env);
    const out = new Captured();
    const errors = new Captured();
    try {
      const code = await this.run(request.argv, out, errors, request.env);
      if (out.overflowed || errors.overflowed) return { local: 'output too large to relay' };
      return { code, out: out.text(), err: errors.text() };
    } catch (error) {
      this.log(`a command failed in the resident reader: ${(error as Error).message}`);
      return { local: 'the command failed in the resident reader' };
    } finally {
      replaceEnv(own.env);
      process.chdir(own.cwd);
    }
  }

  private refuse(socket: Socket, reason: string): void {
    this.counts.refused++;
    this.log(`refused a connection: ${reason}`);
    this.reply(socket, { local: reason });
  }

  private reply(socket: Socket, reply: ResidentReply): void {
    if (socket.destroyed) return;
    socket.end(`${JSON.stringify(reply)}\n`);
  }
}

/** Whether a server accepts connections on `socketPath` (a stale socket refuses them at once). */
function answers(socketPath: string): Promise<boolean> {
  return new Promise((settle) => {
    const probe = connect(socketPath);
    probe.once('connect', () => {
      probe.destroy();
      settle(true);
    });
    probe.once('error', () => settle(false));
  });
}

/** Output kept for the reply, up to the cap the wire allows. */
class Captured implements Output {
  private readonly parts: string[] = [];
  private size = 0;
  overflowed = false;

  write(text: string): boolean {
    this.size += text.length;
    if (this.size > REPLY_OUTPUT_MAX_CHARS) this.overflowed = true;
    else this.parts.push(text);
    return true;
  }

  text(): string {
    return this.parts.join('');
  }
}

/** process.env made exactly `env` (Node turns every value into a string, as at start). */
function replaceEnv(env: Readonly<Record<string, string | undefined>>): void {
  for (const key of Object.keys(process.env)) if (!(key in env)) delete process.env[key];
  for (const [key, value] of Object.entries(env)) if (value !== undefined) process.env[key] = value;
}

/** The socket's folder, made if missing, owned by this user and closed to everyone else. */
async function privateFolder(folder: string): Promise<Outcome<void>> {
  try {
    await mkdir(folder, { recursive: true, mode: 0o700 });
    const stats = await lstat(folder);
    if (!stats.isDirectory()) return err(`${folder} is not a folder`);
    if (typeof process.getuid === 'function' && stats.uid !== process.getuid()) return err(`${folder} belongs to another user`);
    // Ours but open to others (made by hand, or under a loose umask before): closed, as it must be.
    if ((stats.mode & 0o077) !== 0) await chmod(folder, 0o700);
    return ok(undefined);
  } catch (error) {
    return err(`cannot prepare ${folder}: ${(error as Error).message}`);
  }
}
