// What the loopback stand-ins of the Anthropic and OpenAI APIs share: reading a request's body
// (gzip included) as JSON, a log of requests kept in memory and optionally in a JSONL file, and a
// server on 127.0.0.1 that answers a scripted step's error with a 400 (clients do not retry it, so
// a broken script ends the run instead of replaying the request) and stops without waiting for
// keep-alive sockets. Each stand-in says only how to answer its API.
import { appendFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';

/** The body as JSON; an empty body is null and one that is not JSON its text. */
export function readJsonBody(request: IncomingMessage): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    request.on('data', (part: Buffer) => parts.push(part));
    request.on('error', reject);
    request.on('end', () => {
      const raw = Buffer.concat(parts);
      const text = (request.headers['content-encoding'] === 'gzip' ? gunzipSync(raw) : raw).toString('utf8');
      if (text === '') return resolve(null);
      try {
        resolve(JSON.parse(text));
      } catch {
        resolve(text);
      }
    });
  });
}

/** The request's path without its query. */
export const pathOf = (request: IncomingMessage): string => (request.url ?? '/').split('?')[0] ?? '/';

/** The named headers that are present; credentials are never among them. */
export function loggedHeaders(request: IncomingMessage, names: readonly string[]): Record<string, string> {
  return Object.fromEntries(names.flatMap((name) => (typeof request.headers[name] === 'string' ? [[name, request.headers[name]]] : [])));
}

export function sendJson(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(JSON.stringify(body));
}

/** Requests oldest first, each also appended to `logFile` when there is one. */
export class RequestLog<T> {
  readonly entries: T[] = [];

  constructor(private readonly logFile?: string) {}

  get next(): number {
    return this.entries.length + 1;
  }

  add(entry: T): void {
    this.entries.push(entry);
    if (this.logFile) appendFileSync(this.logFile, `${JSON.stringify(entry)}\n`);
  }
}

export interface ScriptedServer {
  readonly url: string;
  /** Errors thrown while answering; each was answered with `errorBody`'s 400. */
  readonly errors: readonly Error[];
  stop(): Promise<void>;
}

/**
 * A stand-in's server listening on a free loopback port: its URL, and a stop that also cuts
 * kept-alive connections (a second stop finds it closed already: not an error for a test's cleanup).
 */
export async function listenLoopback(server: Server): Promise<{ url: string; stop: () => Promise<void> }> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

export async function startScriptedServer(
  handle: (request: IncomingMessage, response: ServerResponse) => Promise<void>,
  errorBody: (message: string) => unknown,
): Promise<ScriptedServer> {
  const errors: Error[] = [];
  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      const failure = error instanceof Error ? error : new Error(String(error));
      errors.push(failure);
      if (!response.headersSent) sendJson(response, 400, errorBody(failure.message));
      else response.end();
    });
  });
  return { ...(await listenLoopback(server)), errors };
}
