// The resident reader: a `ctxlens` process the extension keeps running (host/ResidentCli.ts) that
// answers read-only commands for the `ctxlens` started in VS Code's terminals, so that a person's
// `inspect` or `sessions` pays Node's own start and little more (no bundle to load, no cold heap).
// What both ends share: the variable that names the socket, the commands served, the wire and its
// limits. The client is the few-line loader every command starts with (cli/bin.ts), so this module
// has no zod: the server checks requests with residentWire.ts, the client checks replies here.
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cacheRoot } from '../sessions/common/cacheDir';
import { parseJson } from '../protocol/parseJson';

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

/** What a client asks: the command line and the context a local run would have had. */
export interface ResidentRequest {
  /** The client's own version: another version's commands may print differently, so it runs them itself. */
  version: string;
  argv: string[];
  cwd: string;
  env: Record<string, string>;
}

/**
 * What the server sends back, one JSON line each: `started` when the request leaves the queue, then
 * the command's exit code and output, or `local` when the client should run it itself (busy, output
 * too large, a working folder the server cannot enter).
 */
export type ResidentReply = { started: true } | { code: number; out: string; err: string } | { local: string };

/** One reply line, checked by hand (see the header); null for anything else. */
export function readReply(line: string): ResidentReply | null {
  const value = parseJson(line);
  if (typeof value !== 'object' || value === null) return null;
  const reply = value as Record<string, unknown>;
  if (reply.started === true) return { started: true };
  if (typeof reply.local === 'string') return { local: reply.local };
  if (Number.isInteger(reply.code) && typeof reply.out === 'string' && typeof reply.err === 'string') return { code: reply.code as number, out: reply.out, err: reply.err };
  return null;
}

/** A Unix socket's path must fit in 108 bytes: longer cache folders use the temp folder instead. */
const SOCKET_PATH_MAX = 100;

/**
 * Where a resident reader of process `pid` listens: `<cache>/run/<pid>.sock`, or under the temp
 * folder when that is too long. The folder must be private to the user (the server checks it): the
 * socket runs commands as the user for whoever can connect.
 */
export function residentSocketPath(env: Readonly<Record<string, string | undefined>>, pid: number, uid: number): string {
  const inCache = join(cacheRoot(env), 'run', `${pid}.sock`);
  return Buffer.byteLength(inCache) <= SOCKET_PATH_MAX ? inCache : join(tmpdir(), `context-lens-${uid}`, `${pid}.sock`);
}
