// The loopback proxy between an agent and the Anthropic Messages API. It listens on 127.0.0.1 only,
// refuses requests naming another host (DNS rebinding), caps request bodies, forwards every header
// the agent sent (credentials included, never logged) and pipes responses back as they arrive, so
// streaming stays streaming. `POST /v1/messages` goes through the live rewrite; every other path
// passes through untouched. One event per request goes to the event stream.
import { createServer, request as httpRequest, Agent as HttpAgent, type IncomingHttpHeaders, type IncomingMessage, type OutgoingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import { request as httpsRequest, Agent as HttpsAgent } from 'node:https';
import type { AddressInfo } from 'node:net';
import { brotliDecompress, gunzip, inflate, type InputType, type ZlibOptions } from 'node:zlib';
import type { Result } from '../sessions/types';
import type { ProxyEvent, ProxyEventWriter } from './events';
import type { Rewrite, Rewriting } from './rewrite';
import { UsageTap } from './usage';
import type { SentRequest } from './session';
import { SseBoundary } from './sseBoundary';
import { BodyPool } from './bodyPool';

export const DEFAULT_UPSTREAM = 'https://api.anthropic.com';
/**
 * The Messages API itself refuses a request over 32 MB, so a larger body could only be refused
 * upstream after we held it; 1M tokens of conversation JSON stay well under this.
 */
export const DEFAULT_MAX_BODY_BYTES = 32 * 1024 * 1024;
/**
 * Bodies held at once, all requests together (raw and inflated): three at the cap. With Node's own
 * ~70 MB and one body being read for a batch, the proxy stays under 300 MB whatever it is sent
 * (16 clients at the cap, each held whole, would have held half a gigabyte).
 */
export const DEFAULT_MAX_HELD_BYTES = 96 * 1024 * 1024;

export interface ProxyServerOptions {
  /** 0 picks a free port. */
  port: number;
  upstream: string;
  rewriter: Rewriting;
  events: ProxyEventWriter;
  maxBodyBytes?: number;
  /** What all requests' bodies may hold together; past it a request is answered 503 and may retry. */
  maxHeldBytes?: number;
  /** One line per notable event (never a header or a body). */
  log?: (line: string) => void;
}

export interface RunningProxy {
  readonly url: string;
  readonly port: number;
  /** Stops accepting, lets running requests finish for up to `graceMs`, then cuts the rest. */
  stop(graceMs?: number): Promise<void>;
}

/** Connection-level headers are the hop's own (RFC 9110 §7.6.1): never forwarded. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'te', 'trailer', 'proxy-authenticate', 'proxy-authorization']);
const LOCAL_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** The Host header names us (loopback, any port or ours); anything else may be a rebinding page. */
export function isLocalHost(host: string | undefined, port: number): boolean {
  if (!host) return false;
  const match = /^(\[[^\]]+\]|[^:]+)(?::(\d+))?$/.exec(host.trim().toLowerCase());
  if (!match?.[1] || !LOCAL_HOSTS.has(match[1])) return false;
  return match[2] === undefined || Number(match[2]) === port;
}

/**
 * The path and query a request asks for, in origin form with dot segments resolved, or null for any
 * other form (`http://host/…`, `//host/…`, `*`): what goes upstream stays under its base path.
 */
export function requestTarget(url: string | undefined): { path: string; search: string } | null {
  const raw = url ?? '/';
  if (!raw.startsWith('/') || raw.startsWith('//')) return null;
  try {
    const parsed = new URL(raw, 'http://proxy.invalid');
    return parsed.host === 'proxy.invalid' ? { path: parsed.pathname, search: parsed.search } : null;
  } catch {
    return null;
  }
}

function forwardHeaders(headers: IncomingHttpHeaders, upstreamHost: string, body: { changed: boolean; length: number }): OutgoingHttpHeaders {
  const out: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || HOP_BY_HOP.has(name) || name === 'host') continue;
    if (body.changed && (name === 'content-length' || name === 'content-encoding')) continue;
    out[name] = value;
  }
  out.host = upstreamHost;
  if (body.changed) out['content-length'] = String(body.length);
  return out;
}

function responseHeaders(headers: IncomingHttpHeaders): OutgoingHttpHeaders {
  const out: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) if (value !== undefined && !HOP_BY_HOP.has(name)) out[name] = value;
  return out;
}

/** An error in the API's own shape, so the agent's client reports it like any API error. */
function sendError(response: ServerResponse, status: number, type: string, message: string): void {
  if (response.headersSent) {
    response.end();
    return;
  }
  // No `connection: close` of our own: a refused body is drained first (discard()), and the
  // connection may then serve the next request.
  response.writeHead(status, { 'content-type': 'application/json', 'x-context-lens-proxy': 'error' });
  response.end(JSON.stringify({ type: 'error', error: { type, message: `Context Lens proxy: ${message}` } }));
}

/** Pieces of 64 KB a body gives per turn of the event loop. */
const PIECES_PER_TURN = 4;

/**
 * Called on each piece of a body: after PIECES_PER_TURN of them the body waits for the next turn of
 * the event loop. A socket otherwise gives up to 32 pieces in one turn, and 16 uploads at once held
 * every other stream 100–150 ms per turn; a refused body still drains fast enough to be answered.
 */
function takingTurns(request: IncomingMessage): () => void {
  let pieces = 0;
  return () => {
    if (++pieces < PIECES_PER_TURN) return;
    pieces = 0;
    request.pause();
    setImmediate(() => request.resume());
  };
}

/** How long a refused body may keep arriving before its connection is closed. */
const DRAIN_MS = 5_000;

type BodyRead = Result<Buffer, { status: number; message: string }>;

/** The proxy-wide account of body bytes held in memory. */
class HeldBytes {
  private held = 0;
  constructor(readonly max: number) {}

  take(bytes: number): boolean {
    if (this.held + bytes > this.max) return false;
    this.held += bytes;
    return true;
  }

  give(bytes: number): void {
    this.held = Math.max(0, this.held - bytes);
  }
}

const busy = (held: HeldBytes): { status: number; message: string } => ({ status: 503, message: `busy: request bodies in memory would pass ${held.max} bytes; retry shortly` });

/** How long a refused upload may take to arrive before it is answered anyway (and cut if it goes on). */
const ANSWER_WAIT_MS = 2_000;

/**
 * A refused body is read and thrown away, and answered once it has all arrived (or after
 * ANSWER_WAIT_MS): a client that sent `Connection: close` has its socket closed by Node right after
 * the answer, and one still uploading then saw EPIPE instead of the 413 (2 of 16 uploads of 60 MB).
 * One that keeps sending past the answer is cut.
 */
function discard(request: IncomingMessage, refusal: { status: number; message: string }): Promise<BodyRead> {
  request.on('data', takingTurns(request));
  request.resume();
  request.socket.setTimeout(DRAIN_MS, () => request.destroy());
  return new Promise((resolve) => {
    const answer = (): void => {
      clearTimeout(timer);
      resolve({ ok: false, error: refusal });
    };
    const timer = setTimeout(answer, ANSWER_WAIT_MS);
    if (request.complete) answer();
    request.once('end', answer);
    request.once('close', answer);
  });
}

/**
 * Reads the body within the per-request limit, counting each byte against `held` (the caller gives
 * back the body's length). A declared length is taken from `held` at once and the body copied into
 * one buffer as it arrives: joining 30 MB of pieces at the end stalled every other stream half a
 * second (fresh pages touched in one go).
 */
function readBody(request: IncomingMessage, limit: number, held: HeldBytes, pool: BodyPool): Promise<BodyRead> {
  const declared = request.headers['content-length'] === undefined ? null : Number(request.headers['content-length']);
  const tooLarge = { status: 413, message: `request body over ${limit} bytes` };
  if (declared !== null && declared > limit) return discard(request, tooLarge);
  if (declared !== null && !held.take(declared)) return discard(request, busy(held));
  // In shared memory: the rewrite thread reads it where it is, and it is still here to be sent.
  const whole = declared === null ? null : pool.take(declared);
  // A refused or cut body was read by no one: its buffer may be reused at once.
  const letGo = (): void => {
    if (whole) pool.give(whole);
  };
  const turn = takingTurns(request);
  return new Promise((resolve) => {
    const parts: Buffer[] = [];
    let size = 0;
    /** Refused mid-body: the answer is the refusal, and what it held is already given back. */
    let refused = false;
    /** What this body holds of the budget so far. */
    const taken = (): number => declared ?? size;
    const onData = (part: Buffer): void => {
      size += part.length;
      const refusal = size > limit ? tooLarge : whole !== null || held.take(part.length) ? null : busy(held);
      if (refusal === null) {
        if (whole) part.copy(whole, size - part.length);
        else parts.push(part);
        turn();
        return;
      }
      refused = true;
      held.give(declared ?? size - part.length);
      letGo();
      parts.length = 0;
      request.off('data', onData);
      void discard(request, refusal).then(resolve);
    };
    request.on('data', onData);
    request.on('error', (error) => {
      if (refused) return;
      held.give(taken());
      letGo();
      resolve({ ok: false, error: { status: 400, message: `request aborted: ${error.message}` } });
    });
    request.on('end', () => {
      if (!refused) resolve({ ok: true, value: whole ?? joined(parts, size, pool) });
    });
  });
}

/** A chunked body's pieces in one buffer of shared memory (as a declared one is read). */
function joined(parts: readonly Buffer[], size: number, pool: BodyPool): Buffer {
  const whole = pool.take(size);
  let at = 0;
  for (const part of parts) at += part.copy(whole, at);
  return whole;
}

const INFLATERS: Record<string, (input: InputType, options: ZlibOptions, callback: (error: Error | null, result: Buffer) => void) => void> = { gzip: gunzip, 'x-gzip': gunzip, deflate: inflate, br: brotliDecompress };

/**
 * The JSON inside a compressed request body, for the rewrite only; the original bytes stay as they
 * are. Inflated off the main thread and never past `limit` bytes, which are taken from `held` first
 * (and what was not needed given back): a small bomb costs neither a stall of the other streams nor
 * gigabytes, and several at once no more than the budget. Null when it cannot be read (sent as it
 * came: fail open). On success the caller gives back the inflated length.
 */
function decoded(raw: Buffer, encoding: string | undefined, limit: number, held: HeldBytes): Promise<Result<Buffer | null, { status: number; message: string }>> {
  const name = (encoding ?? '').trim().toLowerCase();
  if (name === '' || name === 'identity') return Promise.resolve({ ok: true, value: raw });
  const inflater = INFLATERS[name];
  if (!inflater) return Promise.resolve({ ok: true, value: null });
  if (!held.take(limit)) return Promise.resolve({ ok: false, error: busy(held) });
  return new Promise((resolve) => {
    inflater(raw, { maxOutputLength: limit }, (error, result) => {
      held.give(error ? limit : limit - result.length);
      if (!error) resolve({ ok: true, value: result });
      else if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') resolve({ ok: false, error: { status: 413, message: `request body over ${limit} bytes once decompressed (${name})` } });
      else resolve({ ok: true, value: null });
    });
  });
}

export async function startProxyServer(options: ProxyServerOptions): Promise<Result<RunningProxy, string>> {
  let upstream: URL;
  try {
    upstream = new URL(options.upstream);
    if (upstream.protocol !== 'http:' && upstream.protocol !== 'https:') throw new Error(`unsupported protocol ${upstream.protocol}`);
  } catch (error) {
    return { ok: false, error: `invalid upstream URL '${options.upstream}': ${error instanceof Error ? error.message : String(error)}` };
  }
  const secure = upstream.protocol === 'https:';
  const agent = secure ? new HttpsAgent({ keepAlive: true }) : new HttpAgent({ keepAlive: true });
  const send = secure ? httpsRequest : httpRequest;
  const basePath = upstream.pathname.replace(/\/$/, '');
  const limit = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const held = new HeldBytes(options.maxHeldBytes ?? DEFAULT_MAX_HELD_BYTES);
  const pool = new BodyPool((memory) => options.rewriter.forget(memory));
  const log = options.log ?? (() => undefined);
  let port = 0;

  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const asked = requestTarget(request.url);
    const path = asked?.path ?? '/';
    const method = request.method ?? 'GET';
    const base = { v: 1 as const, agentSession: null, method: method.slice(0, 16), path: path.slice(0, 200), model: null, stream: false, agentTokens: 0, sentTokens: 0, stickyEdits: 0, newEdits: [], restored: [], addedMs: 0, usage: null, error: null };
    if (!isLocalHost(request.headers.host, port)) {
      // No event: a refused page must not be able to fill the file.
      log(`refused a request for host '${String(request.headers.host).slice(0, 100)}'`);
      sendError(response, 403, 'permission_error', 'only loopback hosts are served');
      request.resume();
      return;
    }
    if (!asked) {
      log(`refused a request target '${String(request.url).slice(0, 100)}'`);
      sendError(response, 400, 'invalid_request_error', 'only paths are served (origin-form request targets)');
      request.resume();
      return;
    }
    // A refused request gets the API's error shape and one event saying why.
    const refuse = (status: number, type: string, reason: string): void => {
      sendError(response, status, type, reason);
      options.events.append({ ...base, time: new Date().toISOString(), session: '', action: 'failed-open', reason, status });
    };
    const read = await readBody(request, limit, held, pool);
    if (!read.ok) return refuse(read.error.status, read.error.status === 413 ? 'request_too_large' : read.error.status === 503 ? 'overloaded_error' : 'invalid_request_error', read.error.message);
    const raw = read.value;
    let inflated = 0;
    let written = false;
    try {
      let rewrite: Rewrite | undefined;
      if (method === 'POST' && path === '/v1/messages') {
        const json = await decoded(raw, request.headers['content-encoding'] as string | undefined, limit, held);
        if (!json.ok) return refuse(json.error.status, json.error.status === 413 ? 'request_too_large' : 'overloaded_error', json.error.message);
        inflated = json.value && json.value !== raw ? json.value.length : 0;
        rewrite = json.value ? await options.rewriter.rewrite(json.value) : undefined;
        // A rewrite of a compressed body that changed nothing sends the compressed original.
        if (rewrite && !rewrite.changed) rewrite = { ...rewrite, pieces: [raw], bytes: raw.length };
      }
      const body = rewrite ?? { pieces: [raw], bytes: raw.length };
      const event: Omit<ProxyEvent, 'status' | 'usage' | 'error'> = rewrite
        ? { ...base, time: new Date().toISOString(), session: rewrite.session, agentSession: rewrite.agentSession, action: rewrite.action, reason: rewrite.reason, model: rewrite.model, stream: rewrite.stream, agentTokens: rewrite.agentTokens, sentTokens: rewrite.sentTokens, stickyEdits: rewrite.stickyEdits, newEdits: rewrite.newEdits, ...(rewrite.breakEven ? { breakEven: rewrite.breakEven } : {}), restored: rewrite.restored, addedMs: Math.round(rewrite.addedMs * 1000) / 1000 }
        : { ...base, time: new Date().toISOString(), session: '', action: method === 'POST' && path === '/v1/messages' ? 'failed-open' : 'passthrough', reason: method === 'POST' && path === '/v1/messages' ? 'unknown content encoding' : null };
      written = await forward(request, response, body, rewrite?.changed === true, event, rewrite?.sent ?? null, `${basePath}${asked.path}${asked.search}`);
    } finally {
      // Held until the response is done: the body is in memory while it is sent upstream. Its buffer
      // is then read by no one (the rewrite answered, or its thread was let go) and may be reused,
      // unless the upstream answered or failed before all of it was written.
      held.give(raw.length + inflated);
      if (written) pool.give(raw);
      else pool.discard(raw);
    }
  };

  /** Sends the request and streams its answer back; resolves with whether every byte of the body was written. */
  const forward = (request: IncomingMessage, response: ServerResponse, body: { pieces: readonly Buffer[]; bytes: number }, changed: boolean, event: Omit<ProxyEvent, 'status' | 'usage' | 'error'>, sent: SentRequest | null, target: string): Promise<boolean> =>
    new Promise((resolve) => {
      let done = false;
      // A request below the trigger is not parsed: whether it streamed is read from the response.
      let streamed = event.stream;
      const finish = (status: number | null, usage: ProxyEvent['usage'], error: string | null): void => {
        if (done) return;
        done = true;
        if (usage && event.session) options.rewriter.recordUsage(event.session, body.bytes, usage, sent);
        options.events.append({ ...event, stream: streamed, status, usage, error });
        if (error) log(`${event.method} ${event.path}: ${error}`);
        resolve(outgoing.writableFinished);
      };
      const outgoing = send({ protocol: upstream.protocol, hostname: upstream.hostname, port: upstream.port, method: request.method, path: target, agent, headers: forwardHeaders(request.headers, upstream.host, { changed, length: body.bytes }) });
      outgoing.on('response', (incoming) => {
        const tap = new UsageTap(incoming.headers['content-type'], incoming.headers['content-encoding'] as string | undefined);
        const sse = (incoming.headers['content-type'] ?? '').includes('text/event-stream');
        streamed ||= sse;
        response.writeHead(incoming.statusCode ?? 502, responseHeaders(incoming.headers));
        response.flushHeaders();
        // Compressed events cannot be told apart here, and need not be: the client can only cut those.
        const events = sse && !incoming.headers['content-encoding'] ? new SseBoundary() : null;
        incoming.on('data', (chunk: Buffer) => {
          tap.push(chunk);
          // Written as it comes: the agent sees each SSE event when the upstream has sent all of it.
          const out = events ? events.push(chunk) : chunk;
          if (out.length > 0 && !response.write(out)) {
            incoming.pause();
            response.once('drain', () => incoming.resume());
          }
        });
        incoming.on('end', () => {
          response.end(events?.rest());
          void tap.finish().then((usage) => finish(incoming.statusCode ?? null, usage, null));
        });
        // A reset socket errors and then closes; the close handler reports it.
        incoming.on('error', () => undefined);
        incoming.on('close', () => {
          if (incoming.complete) return;
          const message = 'the upstream connection closed mid-response';
          // A stream ends with an API error event the client's SDK raises, after the last whole event
          // (the partial one is dropped); a JSON body, or an event already cut, can only be cut.
          if (events?.abandon() === true && !response.writableEnded) response.end(`event: error\ndata: ${JSON.stringify({ type: 'error', error: { type: 'api_error', message: `Context Lens proxy: ${message}` } })}\n\n`);
          else response.destroy();
          void tap.finish().then((usage) => finish(incoming.statusCode ?? null, usage, message));
        });
      });
      outgoing.on('error', (error) => {
        if (done) return;
        if (!response.headersSent) sendError(response, 502, 'api_error', `upstream unreachable (${error.message})`);
        else if (!response.writableEnded) response.destroy();
        finish(response.headersSent ? response.statusCode : 502, null, `upstream: ${error.message}`);
      });
      // The agent gave up (Esc, timeout): stop the upstream call too.
      response.on('close', () => {
        if (!response.writableFinished) {
          outgoing.destroy();
          finish(null, null, 'the agent closed the connection');
        }
      });
      // The pieces as they are (views of the agent's bytes between the stubs), in one write.
      outgoing.cork();
      for (const piece of body.pieces) outgoing.write(piece);
      outgoing.end();
    });

  const server: Server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      log(`internal error: ${error instanceof Error ? error.message : String(error)}`);
      sendError(response, 500, 'api_error', 'internal error');
    });
  });
  server.on('connection', (socket) => {
    socket.setNoDelay(true);
  });
  const listening = await new Promise<Result<number, string>>((resolve) => {
    server.once('error', (error) => resolve({ ok: false, error: `cannot listen on 127.0.0.1:${options.port}: ${error.message}` }));
    server.listen(options.port, '127.0.0.1', () => resolve({ ok: true, value: (server.address() as AddressInfo).port }));
  });
  if (!listening.ok) return listening;
  port = listening.value;

  const stop = async (graceMs = 5_000): Promise<void> => {
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
    const timer = setTimeout(() => server.closeAllConnections(), graceMs);
    await closed;
    clearTimeout(timer);
    agent.destroy();
    await options.events.flush();
  };
  return { ok: true, value: { url: `http://127.0.0.1:${port}`, port, stop } };
}
