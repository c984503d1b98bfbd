// The server side of the resident reader (contracts/resident.ts): one process that keeps the CLI
// loaded and warm and runs the read-only commands its clients hand it. It runs one at a time, as the
// client: that request's working folder and environment become the process's own while it runs
// (readers default to process.env, the home folder comes from $HOME, relative paths resolve against
// the working folder), and both are put back after. Anything that is not a well-formed request from
// within the user's private folder is refused; a client that cannot be served is told to run the
// command itself, which it can always do. Every connection is greeted with the key only the user
// can read (residentTrust.ts: the client sends nothing to a server that does not know it), must
// send its request within a deadline, and there are only so many at once.
import { randomBytes } from 'node:crypto';
import { lstat, mkdir, unlink, writeFile } from 'node:fs/promises';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { dirname, resolve } from 'node:path';
import { version } from '../../package.json';
import type { Result } from '../sessions/types';
import { parseJson } from '../base/json';
import { agentEnvNames } from '../sessions/agents';
import {
  CONNECTIONS_MAX,
  QUEUE_MAX,
  notPrivate,
  REPLY_DRAIN_MS,
  REPLY_OUTPUT_MAX_CHARS,
  REQUEST_DEADLINE_MS,
  REQUEST_MAX_BYTES,
  RESIDENT_COMMANDS,
  residentEnv,
  residentKeyPath,
  residentRequestSchema,
  socketPathFits,
  SOCKET_PATH_MAX_BYTES,
  type Place,
  type ResidentReply,
  type ResidentRequest,
} from '../contracts/residentWire';
import { ownPlace } from './residentTrust';
import type { Output } from './stdio';

/** Each agent's own variables, by its adapter: said in the hello, so the client sends them. */
const AGENT_ENV = agentEnvNames();

type Outcome<T> = Result<T, string>;
const ok = <T>(value: T): Outcome<T> => ({ ok: true, value });
const err = <T>(error: string): Outcome<T> => ({ ok: false, error });

/** What runs a command line: the CLI's `main`. */
export type RunCommand = (argv: readonly string[], out: Output, err: Output, env: Readonly<Record<string, string>>) => Promise<number>;

/** The wire's limits (contracts/resident.ts); shorter in tests. */
export interface Limits {
  deadlineMs: number;
  drainMs: number;
  connectionsMax: number;
}

interface Job {
  request: ResidentRequest;
  socket: Socket;
}

export class ResidentServer {
  private readonly queue: Job[] = [];
  private running = false;
  private connections = 0;
  /** What this process sees of the file system: a client that sees something else runs its command itself. */
  private readonly place: Place = ownPlace();
  /** Requests served and refused, for the log line at exit. */
  readonly counts = { served: 0, local: 0, refused: 0 };

  private constructor(
    private readonly server: Server,
    readonly socketPath: string,
    private readonly key: string,
    private readonly run: RunCommand,
    private readonly log: (line: string) => void,
    private readonly limits: Limits,
  ) {}

  /** Listens on `socketPath` once its folder is private to this user; a stale socket there is replaced. */
  static async listen(
    path: string,
    run: RunCommand,
    log: (line: string) => void,
    limits: Limits = { deadlineMs: REQUEST_DEADLINE_MS, drainMs: REPLY_DRAIN_MS, connectionsMax: CONNECTIONS_MAX },
  ): Promise<Outcome<ResidentServer>> {
    // Absolute, as the clients are told it; and whole: Node would cut a longer one short, in another folder.
    const socketPath = resolve(path);
    if (!socketPathFits(socketPath))
      return err(
        `${socketPath} is ${Buffer.byteLength(socketPath)} bytes long: a socket's path can have at most ${SOCKET_PATH_MAX_BYTES}; choose a shorter one`,
      );
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
    const key = randomBytes(32).toString('hex');
    const keyPath = residentKeyPath(socketPath);
    try {
      // A key left by a reader that was killed is replaced; a new one is never written over anything.
      await unlink(keyPath).catch(() => undefined);
      await writeFile(keyPath, key, { mode: 0o600, flag: 'wx' });
    } catch (error) {
      return err(`cannot write ${keyPath}: ${(error as Error).message}`);
    }
    const server = createServer();
    const resident = new ResidentServer(server, socketPath, key, run, log, limits);
    server.on('connection', (socket) => resident.accept(socket));
    return new Promise((settle) => {
      server.once('error', (error) => {
        void unlink(keyPath).catch(() => undefined);
        settle(err(`cannot listen on ${socketPath}: ${error.message}`));
      });
      server.listen(socketPath, () => settle(ok(resident)));
    });
  }

  /** Requests waiting behind the one running. */
  get waiting(): number {
    return this.queue.length;
  }

  /** Connections open, counted against the cap. */
  get connected(): number {
    return this.connections;
  }

  /** Stops listening and removes the socket; a running command finishes, queued ones run locally. */
  async close(): Promise<void> {
    for (const job of this.queue.splice(0)) this.reply(job.socket, { local: 'the resident reader is stopping' });
    await new Promise<void>((settle) => this.server.close(() => settle()));
    await unlink(this.socketPath).catch(() => undefined);
    await unlink(residentKeyPath(this.socketPath)).catch(() => undefined);
  }

  private accept(socket: Socket): void {
    socket.on('error', () => socket.destroy());
    if (this.connections >= this.limits.connectionsMax) {
      this.counts.local++;
      // Read (and dropped), so that the client's end is seen and the connection goes at once.
      socket.resume();
      return this.reply(socket, { local: 'busy' });
    }
    this.connections++;
    socket.once('close', () => this.connections--);
    socket.write(`${JSON.stringify({ hello: this.key, env: AGENT_ENV })}\n`);
    const chunks: Buffer[] = [];
    let size = 0;
    // From the connection's start, whatever it sends meanwhile: a byte now and then does not keep it.
    const deadline = setTimeout(() => this.refuse(socket, 'no request in time'), this.limits.deadlineMs);
    socket.once('close', () => clearTimeout(deadline));
    const onData = (chunk: Buffer): void => {
      const end = chunk.indexOf(0x0a);
      size += end === -1 ? chunk.length : end;
      if (size > REQUEST_MAX_BYTES) {
        // Refused once; the rest it sends is read and dropped (till the reply's deadline), not collected nor refused again.
        socket.off('data', onData).on('data', () => undefined);
        clearTimeout(deadline);
        return this.refuse(socket, 'request too large');
      }
      if (end === -1) return void chunks.push(chunk);
      chunks.push(chunk.subarray(0, end));
      socket.off('data', onData);
      clearTimeout(deadline);
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
    const place = request.data.place;
    if (place.mnt !== this.place.mnt || place.root !== this.place.root) {
      this.counts.local++;
      return this.reply(socket, { local: 'the client sees another file system (another mount namespace or root): it reads its files itself' });
    }
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
    // Only what the commands read, whatever a client sent.
    const env = residentEnv(request.env, AGENT_ENV);
    replaceEnv(env);
    const out = new Captured();
    const errors = new Captured();
    try {
      const code = await this.run(request.argv, out, errors, env);
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
    // Ended on our side only: a client that keeps its side open would hold its place for ever.
    const drain = setTimeout(() => socket.destroy(), this.limits.drainMs);
    socket.once('close', () => clearTimeout(drain));
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
    const uid = process.getuid?.();
    const stats = await lstat(folder);
    if (uid === undefined) return stats.isDirectory() ? ok(undefined) : err(`${folder} is not a folder`);
    // Never one we made (mkdir 0700 under any umask) when open to others: a folder of the person's
    // (`--socket ~/r.sock` would be their home), whose mode is not ours to change.
    const problem = notPrivate(stats, uid, 'folder');
    if (problem !== undefined) {
      return err(
        `${folder} ${problem}${(stats.mode & 0o077) !== 0 ? ': the socket needs a folder only you can enter; give --socket a path in a folder of its own (it is made 0700), or chmod 700 that folder yourself' : ''}`,
      );
    }
    return ok(undefined);
  } catch (error) {
    return err(`cannot prepare ${folder}: ${(error as Error).message}`);
  }
}
