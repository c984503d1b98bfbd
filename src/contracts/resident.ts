// The resident reader: a `ctxlens` process the extension keeps running (host/ResidentCli.ts) that
// answers read-only commands for the `ctxlens` started in VS Code's terminals, so that a person's
// `inspect` or `sessions` pays Node's own start and little more (no bundle to load, no cold heap).
// What both ends share: the variable that names the socket, the commands served, the wire and its
// limits. The client is the few-line loader every command starts with (cli/bin.ts), so this module
// has no zod: the server checks requests with residentWire.ts, the client checks replies here.
import { lstatSync, type Stats } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { cacheRoot } from '../base/node/cacheDir';
import { parseJson } from '../base/json';

/** Set in VS Code's terminals by the extension: the socket of its resident reader. */
export const RESIDENT_ENV = 'CONTEXT_LENS_RESIDENT';

/** Commands that only read, so a reply lost half-way can be run again here with no harm done. */
export const RESIDENT_COMMANDS: ReadonlySet<string> = new Set(['inspect', 'sessions']);

/** A request is one line: argv, working folder and environment (a typical environment is a few KB). */
export const REQUEST_MAX_BYTES = 1024 * 1024;
/** What a command may print through the server: past it the client prints it itself. */
export const REPLY_OUTPUT_MAX_CHARS = 64 * 1024 * 1024;
/** Requests waiting behind the one running: past it the server says busy and the client runs the command itself. */
export const QUEUE_MAX = 8;
/** How long a client waits for its request to start (queue and connect) before running it itself. */
export const ACCEPT_TIMEOUT_MS = 2000;
/** How long a client waits for a started request's reply: a server that stopped still answers, locally. */
export const REPLY_TIMEOUT_MS = 120_000;

/** A connection must have sent its request line this long after it was accepted (not reset by each byte). */
export const REQUEST_DEADLINE_MS = 5000;
/** A reply is taken within this once sent: a client that does not read it (or never closes its side) is dropped. */
export const REPLY_DRAIN_MS = 30_000;
/** Connections open at once: past it a new one is told busy at once (a queue of 8 needs far fewer). */
export const CONNECTIONS_MAX = 32;

/**
 * The variables a client sends: those `inspect` and `sessions` read. The agent-neutral ones are
 * here (the home folder, XDG folders, the cache, prices, the time zone dates are printed in); each
 * agent's own (where it keeps its sessions and settings) are named by its adapter, and the server,
 * which has them all, lists them in its `hello` — so adding an agent edits nothing here. Never the
 * rest of a terminal's environment (API keys, tokens): the server does not need it, and a unit
 * test keeps the lists in step with what the commands read.
 */
export const RESIDENT_ENV_NAMES: ReadonlySet<string> = new Set([
  'HOME',
  'TZ',
  'XDG_CACHE_HOME',
  'XDG_CONFIG_HOME',
  'XDG_DATA_HOME',
  'XDG_STATE_HOME',
  'CONTEXT_LENS_CACHE',
  'CONTEXT_LENS_PRICES',
  'CONTEXT_LENS_DEBUG',
]);

/** An agent's variable as a server may name it: a bounded name of a bounded list, nothing else taken. */
const ENV_NAME = /^[A-Z_][A-Z0-9_]{0,63}$/;
/** Names of secrets: never an agent's sessions folder, so never sent, whoever asks (the key checked or not). */
const SECRET_NAME = /KEY|TOKEN|SECRET|PASS|AUTH|COOKIE|CREDENTIAL|SESSION_ID/;
export const AGENT_ENV_NAMES_MAX = 64;

/** `env` cut down to the neutral names and `agents'` (both ends apply it: the server runs with nothing else). */
export function residentEnv(env: Readonly<Record<string, string | undefined>>, agents: readonly string[] = []): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const name of [...RESIDENT_ENV_NAMES, ...agents]) {
    const value = env[name];
    if (value !== undefined) kept[name] = value;
  }
  return kept;
}

/**
 * Which file system a process sees: its mount namespace (Linux) and its root folder's device and
 * inode (a chroot). The server reads files for its clients, so it serves only those that see what
 * it sees: a client in a sandbox or a container would otherwise get files it cannot read itself.
 */
export interface Place {
  mnt: string;
  root: string;
}

/** What a client asks: the command line and the context a local run would have had. */
export interface ResidentRequest {
  /** The client's own version: another version's commands may print differently, so it runs them itself. */
  version: string;
  argv: string[];
  cwd: string;
  /** Only RESIDENT_ENV_NAMES and the agents' names the server's hello listed. */
  env: Record<string, string>;
  place: Place;
}

/**
 * What the server sends back, one JSON line each: `hello` as soon as a connection is accepted (the
 * key only the user's own reader can know, see the key file below), `started` when the request
 * leaves the queue, then the command's exit code and output, or `local` when the client should run
 * it itself (busy, output too large, a working folder the server cannot enter, another place).
 */
export type ResidentReply = { hello: string; env?: string[] } | { started: true } | { code: number; out: string; err: string } | { local: string };

/** One reply line, checked by hand (see the header); null for anything else. */
export function readReply(line: string): ResidentReply | null {
  const value = parseJson(line);
  if (typeof value !== 'object' || value === null) return null;
  const reply = value as Record<string, unknown>;
  if (typeof reply.hello === 'string') {
    // The agents' variables to send, from a server the client has not checked yet: kept only if the
    // whole list has the expected shape (the client uses it only once the key matched).
    const env = reply.env;
    const names =
      Array.isArray(env) &&
      env.length <= AGENT_ENV_NAMES_MAX &&
      env.every((name) => typeof name === 'string' && ENV_NAME.test(name) && !SECRET_NAME.test(name));
    return names ? { hello: reply.hello, env: env as string[] } : { hello: reply.hello };
  }
  if (reply.started === true) return { started: true };
  if (typeof reply.local === 'string') return { local: reply.local };
  if (Number.isInteger(reply.code) && typeof reply.out === 'string' && typeof reply.err === 'string')
    return { code: reply.code as number, out: reply.out, err: reply.err };
  return null;
}

/**
 * A Unix socket's path must fit in `sun_path` (108 bytes on Linux, 104 on macOS and the BSDs, the
 * last one a NUL). Node does not refuse a longer one: it cuts it short, and binds or connects to
 * another path in another folder, so both ends refuse it first.
 */
export const SOCKET_PATH_MAX_BYTES = process.platform === 'linux' ? 107 : 103;

/** Whether `path` can be a Unix socket's path as it is. */
export const socketPathFits = (path: string): boolean => Buffer.byteLength(path) <= SOCKET_PATH_MAX_BYTES;

/**
 * The key a reader writes beside its socket (0600, in its 0700 folder) and says in its `hello`: a
 * client sends nothing to a socket whose server does not know it. Node cannot ask a Unix socket
 * who is at the other end (no SO_PEERCRED); a process that can read this file is the user's own.
 */
export const residentKeyPath = (socketPath: string): string => `${socketPath}.key`;

/**
 * Where a resident reader of process `pid` listens, when there is a place no other user can take
 * first: `$XDG_RUNTIME_DIR/context-lens/<pid>.sock` where there is such a folder (the user's own,
 * 0700, as the XDG spec has it), else `<cache>/run/<pid>.sock`. Undefined when neither fits in a
 * socket's path: the host then makes a folder of its own, of a name no one could guess
 * (ResidentCli), never one of a name known in advance under the temp folder, which another local
 * user could create first.
 */
export function residentSocketPath(env: Readonly<Record<string, string | undefined>>, pid: number): string | undefined {
  const runtime = env.XDG_RUNTIME_DIR;
  const candidates = [
    ...(runtime !== undefined && isAbsolute(runtime) && privateToUs(runtime) ? [join(runtime, 'context-lens')] : []),
    join(cacheRoot(env), 'run'),
  ];
  return candidates.map((folder) => join(folder, `${pid}.sock`)).find(socketPathFits);
}

/** A folder that exists, is not a link, belongs to this user and is closed to everyone else. */
function privateToUs(folder: string): boolean {
  const uid = process.getuid?.();
  try {
    return uid !== undefined && notPrivate(lstatSync(folder), uid, 'folder') === undefined;
  } catch {
    return false;
  }
}

/**
 * Why a folder (or file) of the resident reader's is not private to user `uid` — a link, another
 * kind, another owner, open to others — or undefined when it is. One rule for where the socket may
 * go, what the server listens in and what a client trusts.
 */
export function notPrivate(stats: Stats, uid: number, kind: 'folder' | 'file'): string | undefined {
  if (stats.isSymbolicLink()) return 'is a link';
  if (kind === 'folder' ? !stats.isDirectory() : !stats.isFile()) return `is not a ${kind}`;
  if (stats.uid !== uid) return `belongs to user ${stats.uid}`;
  if ((stats.mode & 0o077) !== 0) return `is open to other users (mode ${(stats.mode & 0o777).toString(8)})`;
  return undefined;
}
