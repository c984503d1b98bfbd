// The client side of the resident reader (contracts/resident.ts): run from the loader, before any of
// the CLI is loaded. It hands a read-only command to the extension's resident process and prints
// what comes back; whenever that cannot be done cleanly (no server, a stale socket, busy, a broken
// reply, a server that stopped) it says so by resolving null and the command runs here as it
// always would. Nothing is printed until the whole reply is in, so a run here never follows half
// an answer. Nothing is sent before the socket and its server are known to be the user's own
// (residentTrust.ts), and then only the variables the commands read.
import type { Socket } from 'node:net';
import { version } from '../../package.json';
import {
  ACCEPT_TIMEOUT_MS,
  readReply,
  REPLY_TIMEOUT_MS,
  RESIDENT_COMMANDS,
  RESIDENT_ENV,
  residentEnv,
  type Place,
  type ResidentReply,
} from '../contracts/resident';
import { ownPlace, trustedKey, type Trust } from './residentTrust';
import type { Output } from './stdio';

/** The socket to ask for this command line, or undefined when it runs here. */
export function residentSocketFor(argv: readonly string[], env: Readonly<Record<string, string | undefined>>): string | undefined {
  const socket = env[RESIDENT_ENV];
  const [command] = argv;
  if (!socket || command === undefined || !RESIDENT_COMMANDS.has(command)) return undefined;
  return socket;
}

export interface Asked {
  argv: readonly string[];
  cwd: string;
  env: Readonly<Record<string, string | undefined>>;
  out: Output;
  err: Output;
  /** This process's view of the file system; ownPlace() unless a test says otherwise. */
  place?: Place;
}

export interface AskOptions {
  acceptMs: number;
  replyMs: number;
  /** Whether the socket is the user's own, and the key its server must know. */
  trust: (socketPath: string) => Trust;
}

/** The command's exit code when the server ran it and its output is printed, else null. */
export function askResident(socketPath: string, asked: Asked, connect: (path: string) => Socket, options: Partial<AskOptions> = {}): Promise<number | null> {
  const { acceptMs = ACCEPT_TIMEOUT_MS, replyMs = REPLY_TIMEOUT_MS, trust = trustedKey } = options;
  return new Promise((settle) => {
    const trusted = trust(socketPath);
    if (!('key' in trusted)) {
      // A socket that is not there is the usual case (no reader yet); one that is someone else's is said.
      if (trusted.hostile) asked.err.write(`ctxlens: not asking the resident reader at ${socketPath}: ${trusted.reason}; running here\n`);
      settle(null);
      return;
    }
    let socket: Socket;
    try {
      socket = connect(socketPath);
    } catch {
      settle(null);
      return;
    }
    let pending: string[] = [];
    let greeted = false;
    let started = false;
    let done = false;
    const finish = (code: number | null): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      settle(code);
    };
    let timer = setTimeout(() => finish(null), acceptMs);
    const onReply = (reply: ResidentReply | null): void => {
      if (reply === null || 'local' in reply) return finish(null);
      if ('hello' in reply) {
        // Only now, and only to a server that knows the key, does the request go out.
        if (greeted) return finish(null);
        if (reply.hello !== trusted.key) {
          asked.err.write(`ctxlens: the server at ${socketPath} is not your resident reader; running here\n`);
          return finish(null);
        }
        greeted = true;
        const request = { version, argv: asked.argv, cwd: asked.cwd, env: residentEnv(asked.env, reply.env), place: asked.place ?? ownPlace() };
        socket.write(`${JSON.stringify(request)}\n`);
        return;
      }
      if (!greeted) return finish(null);
      if ('started' in reply) {
        if (started) return finish(null);
        started = true;
        clearTimeout(timer);
        timer = setTimeout(() => finish(null), replyMs);
        return;
      }
      if (!started) return finish(null);
      if (reply.out !== '') asked.out.write(reply.out);
      if (reply.err !== '') asked.err.write(reply.err);
      finish(reply.code);
    };
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      // Only the new chunk is searched for the end of a line: a reply of many megabytes stays linear.
      let from = 0;
      for (let end = chunk.indexOf('\n'); end !== -1 && !done; end = chunk.indexOf('\n', from)) {
        pending.push(chunk.slice(from, end));
        onReply(readReply(pending.join('')));
        pending = [];
        from = end + 1;
      }
      if (from < chunk.length) pending.push(chunk.slice(from));
    });
    // A socket that closes before the reply, or cannot be reached at all: run here.
    socket.on('error', () => finish(null));
    socket.on('close', () => finish(null));
  });
}
