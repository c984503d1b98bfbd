// The client side of the resident reader (contracts/resident.ts): run from the loader, before any of
// the CLI is loaded. It hands a read-only command to the extension's resident process and prints
// what comes back; whenever that cannot be done cleanly (no server, a stale socket, busy, a broken
// reply, a server that stopped) it says so by resolving false and the command runs here as it
// always would. Nothing is printed until the whole reply is in, so a run here never follows half
// an answer.
import type { Socket } from 'node:net';
import { version } from '../../package.json';
import { ACCEPT_TIMEOUT_MS, readReply, REPLY_TIMEOUT_MS, RESIDENT_COMMANDS, RESIDENT_ENV, type ResidentReply } from '../contracts/resident';
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
}

/** The command's exit code when the server ran it and its output is printed, else null. */
export function askResident(socketPath: string, asked: Asked, connect: (path: string) => Socket, timeouts = { acceptMs: ACCEPT_TIMEOUT_MS, replyMs: REPLY_TIMEOUT_MS }): Promise<number | null> {
  return new Promise((settle) => {
    let socket: Socket;
    try {
      socket = connect(socketPath);
    } catch {
      settle(null);
      return;
    }
    let pending: string[] = [];
    let started = false;
    let done = false;
    const finish = (code: number | null): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      settle(code);
    };
    let timer = setTimeout(() => finish(null), timeouts.acceptMs);
    const onReply = (reply: ResidentReply | null): void => {
      if (reply === null || 'local' in reply) return finish(null);
      if ('started' in reply) {
        if (started) return finish(null);
        started = true;
        clearTimeout(timer);
        timer = setTimeout(() => finish(null), timeouts.replyMs);
        return;
      }
      if (!started) return finish(null);
      if (reply.out !== '') asked.out.write(reply.out);
      if (reply.err !== '') asked.err.write(reply.err);
      finish(reply.code);
    };
    socket.setEncoding('utf8');
    socket.on('connect', () => {
      const env = Object.fromEntries(Object.entries(asked.env).filter((entry): entry is [string, string] => entry[1] !== undefined));
      socket.write(`${JSON.stringify({ version, argv: asked.argv, cwd: asked.cwd, env })}\n`);
    });
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
