// The loopback proxy between an agent and its model API. It listens on 127.0.0.1 only, refuses
// requests naming another host (DNS rebinding), caps request bodies (bodyRead.ts), forwards every
// header the agent sent (credentials included, never logged) and pipes responses back as they
// arrive, so streaming stays streaming (forward.ts). A request a wire format reads (formats/:
// Anthropic Messages, OpenAI Responses and Chat Completions, Gemini) goes through the live rewrite;
// every other one passes through untouched. One event per request goes to the event stream.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Result } from '../sessions/types';
import { BodyPool } from './bodyPool';
import { decoded, HeldBytes, readBody } from './bodyRead';
import type { ProxyEvent, ProxyEventWriter } from './events';
import { formatOf, type FormatName, type WireFormat } from './formats';
import { forward, sendError, upstreamOf, type Upstream } from './forward';
import { isLocalHost, requestTarget, upstreamTarget } from './http';
import type { Rewrite, Rewriting } from './rewrite';

export { isLocalHost, requestTarget } from './http';

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
  /** Where requests go: every request's upstream, unless `upstreams` names one for its format. */
  upstream: string;
  /** The upstream of the requests one format reads (an agent's own provider beside Claude Code's). */
  upstreams?: Partial<Record<FormatName, string>>;
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

/** The error type a refusal's status goes by, in the request's API's words. */
function refusalType(status: number, format: WireFormat | null): string {
  const anthropic = format === null || format.name === 'anthropic-messages';
  if (status === 413) return anthropic ? 'request_too_large' : format.name === 'gemini' ? 'INVALID_ARGUMENT' : 'invalid_request_error';
  if (status === 503) return anthropic ? 'overloaded_error' : format.name === 'gemini' ? 'UNAVAILABLE' : 'server_error';
  return anthropic ? 'invalid_request_error' : format.name === 'gemini' ? 'INVALID_ARGUMENT' : 'invalid_request_error';
}

/** Every upstream the options name, each once; the first error when one is not a URL. */
function upstreamsOf(options: ProxyServerOptions): Result<{ fallback: Upstream; byFormat: Map<FormatName, Upstream>; all: Upstream[] }, string> {
  const byUrl = new Map<string, Upstream>();
  const of = (raw: string): Result<Upstream, string> => {
    const known = byUrl.get(raw);
    if (known) return { ok: true, value: known };
    const made = upstreamOf(raw);
    if (made.ok) byUrl.set(raw, made.value);
    return made;
  };
  const fallback = of(options.upstream);
  if (!fallback.ok) return fallback;
  const byFormat = new Map<FormatName, Upstream>();
  for (const [name, raw] of Object.entries(options.upstreams ?? {}) as [FormatName, string | undefined][]) {
    if (raw === undefined) continue;
    const made = of(raw);
    if (!made.ok) return made;
    byFormat.set(name, made.value);
  }
  return { ok: true, value: { fallback: fallback.value, byFormat, all: [...byUrl.values()] } };
}

export async function startProxyServer(options: ProxyServerOptions): Promise<Result<RunningProxy, string>> {
  const upstreams = upstreamsOf(options);
  if (!upstreams.ok) return upstreams;
  const limit = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const held = new HeldBytes(options.maxHeldBytes ?? DEFAULT_MAX_HELD_BYTES);
  const pool = new BodyPool((memory) => options.rewriter.forget(memory));
  const log = options.log ?? (() => undefined);
  let port = 0;

  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const asked = requestTarget(request.url);
    const path = asked?.path ?? '/';
    const method = request.method ?? 'GET';
    const format = formatOf(method, path);
    const base = {
      v: 1 as const,
      agentSession: null,
      toolCall: null,
      format: format?.name ?? null,
      method: method.slice(0, 16),
      path: path.slice(0, 200),
      model: null,
      stream: false,
      agentTokens: 0,
      sentTokens: 0,
      stickyEdits: 0,
      newEdits: [],
      restored: [],
      addedMs: 0,
      usage: null,
      error: null,
    };
    if (!isLocalHost(request.headers.host, port)) {
      // No event: a refused page must not be able to fill the file.
      log(`refused a request for host '${String(request.headers.host).slice(0, 100)}'`);
      sendError(
        response,
        403,
        format && format.name !== 'anthropic-messages' ? (format.name === 'gemini' ? 'PERMISSION_DENIED' : 'permission_error') : 'permission_error',
        'only loopback hosts are served',
        format,
      );
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
    const refuse = (status: number, reason: string): void => {
      sendError(response, status, refusalType(status, format), reason, format);
      options.events.append({ ...base, time: new Date().toISOString(), session: '', action: 'failed-open', reason, status });
    };
    const read = await readBody(request, limit, held, pool);
    if (!read.ok) return refuse(read.error.status, read.error.message);
    const raw = read.value;
    let inflated = 0;
    let toolCall: string | null = null;
    let written = false;
    try {
      let rewrite: Rewrite | undefined;
      if (format) {
        const json = await decoded(raw, request.headers['content-encoding'] as string | undefined, limit, held);
        if (!json.ok) return refuse(json.error.status, json.error.message);
        inflated = json.value && json.value !== raw ? json.value.length : 0;
        rewrite = json.value ? await options.rewriter.rewrite(json.value, format.name, path) : undefined;
        // Read here, on every request the format reads: what names the conversation when the request names no session.
        if (json.value) toolCall = format.toolCallInBody(json.value);
        // A rewrite of a compressed body that changed nothing sends the compressed original.
        if (rewrite && !rewrite.changed) rewrite = { ...rewrite, pieces: [raw], bytes: raw.length };
      }
      const body = rewrite ?? { pieces: [raw], bytes: raw.length };
      const event: Omit<ProxyEvent, 'status' | 'usage' | 'error'> = rewrite
        ? {
            ...base,
            time: new Date().toISOString(),
            session: rewrite.session,
            agentSession: rewrite.agentSession,
            toolCall,
            action: rewrite.action,
            reason: rewrite.reason,
            model: rewrite.model,
            stream: rewrite.stream,
            agentTokens: rewrite.agentTokens,
            sentTokens: rewrite.sentTokens,
            stickyEdits: rewrite.stickyEdits,
            newEdits: rewrite.newEdits,
            ...(rewrite.breakEven ? { breakEven: rewrite.breakEven } : {}),
            restored: rewrite.restored,
            addedMs: Math.round(rewrite.addedMs * 1000) / 1000,
          }
        : {
            ...base,
            time: new Date().toISOString(),
            session: '',
            action: format ? 'failed-open' : 'passthrough',
            reason: format ? 'unknown content encoding' : method === 'POST' ? 'no wire format the proxy reads: passed through untouched' : null,
          };
      const upstream = (format && upstreams.value.byFormat.get(format.name)) || upstreams.value.fallback;
      written = await forward({
        request,
        response,
        upstream,
        target: upstreamTarget(upstream.basePath, asked.path, asked.search),
        body,
        changed: rewrite?.changed === true,
        format,
        event,
        sent: rewrite?.sent ?? null,
        rewriter: options.rewriter,
        events: options.events,
        log,
      });
    } finally {
      // Held until the response is done: the body is in memory while it is sent upstream. Its buffer
      // is then read by no one (the rewrite answered, or its thread was let go) and may be reused,
      // unless the upstream answered or failed before all of it was written.
      held.give(raw.length + inflated);
      if (written) pool.give(raw);
      else pool.discard(raw);
    }
  };

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
    for (const upstream of upstreams.value.all) upstream.agent.destroy();
    await options.events.flush();
  };
  return { ok: true, value: { url: `http://127.0.0.1:${port}`, port, stop } };
}
