// One request sent upstream and its answer streamed back as it arrives: the exact usage read on the
// way (the request's wire format says where it is), one event when it is over, and a cut upstream
// or a client that gave up ended cleanly on both sides.
import { request as httpRequest, Agent as HttpAgent, type IncomingMessage, type ServerResponse } from 'node:http';
import { request as httpsRequest, Agent as HttpsAgent } from 'node:https';
import type { Result } from '../sessions/types';
import type { ProxyEvent, ProxyEventWriter } from './events';
import { ANTHROPIC_MESSAGES } from './formats/anthropic';
import type { WireFormat } from './formats/format';
import { forwardHeaders, responseHeaders } from './http';
import type { Rewriting } from './rewrite';
import type { SentRequest } from './session';
import { SseBoundary } from './sseBoundary';
import { UsageTap } from './usage';

/** Where requests go: one keep-alive agent per upstream. */
export interface Upstream {
  readonly url: URL;
  readonly basePath: string;
  readonly agent: HttpAgent | HttpsAgent;
  readonly send: typeof httpRequest;
}

export function upstreamOf(raw: string): Result<Upstream, string> {
  try {
    const url = new URL(raw);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`unsupported protocol ${url.protocol}`);
    const secure = url.protocol === 'https:';
    return {
      ok: true,
      value: {
        url,
        basePath: url.pathname.replace(/\/$/, ''),
        agent: secure ? new HttpsAgent({ keepAlive: true }) : new HttpAgent({ keepAlive: true }),
        send: secure ? (httpsRequest as typeof httpRequest) : httpRequest,
      },
    };
  } catch (error) {
    return { ok: false, error: `invalid upstream URL '${raw}': ${error instanceof Error ? error.message : String(error)}` };
  }
}

/** An error in the API's own shape (the request's format, else Anthropic's), so the agent's client reports it like any API error. */
export function sendError(response: ServerResponse, status: number, type: string, message: string, format: WireFormat | null = null): void {
  if (response.headersSent) {
    response.end();
    return;
  }
  // No `connection: close` of our own: a refused body is drained first (discard()), and the
  // connection may then serve the next request.
  response.writeHead(status, { 'content-type': 'application/json', 'x-context-lens-proxy': 'error' });
  response.end((format ?? ANTHROPIC_MESSAGES).errorBody(status, type, `Context Lens proxy: ${message}`));
}

export interface Forwarding {
  request: IncomingMessage;
  response: ServerResponse;
  upstream: Upstream;
  /** Path and query as they go upstream. */
  target: string;
  body: { pieces: readonly Buffer[]; bytes: number };
  changed: boolean;
  /** Reads usage and ends a cut stream; Anthropic's for a request no format reads. */
  format: WireFormat | null;
  event: Omit<ProxyEvent, 'status' | 'usage' | 'error'>;
  sent: SentRequest | null;
  rewriter: Rewriting;
  events: ProxyEventWriter;
  log: (line: string) => void;
}

/** Sends the request and streams its answer back; resolves with whether every byte of the body was written. */
export function forward(job: Forwarding): Promise<boolean> {
  const { request, response, upstream, body, event, format } = job;
  return new Promise((resolve) => {
    let done = false;
    // A request below the trigger is not parsed: whether it streamed is read from the response.
    let streamed = event.stream;
    const finish = (status: number | null, usage: ProxyEvent['usage'], error: string | null): void => {
      if (done) return;
      done = true;
      if (usage && event.session) job.rewriter.recordUsage(event.session, body.bytes, usage, job.sent);
      job.events.append({ ...event, stream: streamed, status, usage, error });
      if (error) job.log(`${event.method} ${event.path}: ${error}`);
      resolve(outgoing.writableFinished);
    };
    const { url } = upstream;
    const outgoing = upstream.send({
      protocol: url.protocol,
      hostname: url.hostname,
      port: url.port,
      method: request.method,
      path: job.target,
      agent: upstream.agent,
      headers: forwardHeaders(request.headers, url.host, { changed: job.changed, length: body.bytes }),
    });
    outgoing.on('response', (incoming) => {
      const tap = new UsageTap(
        incoming.headers['content-type'],
        incoming.headers['content-encoding'] as string | undefined,
        (format ?? ANTHROPIC_MESSAGES).usage,
      );
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
        // A stream ends with the API's error event the client's SDK raises, after the last whole
        // event (the partial one is dropped); a JSON body, an event already cut, or a format whose
        // clients agree on no error event, can only be cut.
        const tail = (format ?? ANTHROPIC_MESSAGES).streamError(`Context Lens proxy: ${message}`);
        if (tail !== null && events?.abandon() === true && !response.writableEnded) response.end(tail);
        else response.destroy();
        void tap.finish().then((usage) => finish(incoming.statusCode ?? null, usage, message));
      });
    });
    outgoing.on('error', (error) => {
      if (done) return;
      if (!response.headersSent)
        sendError(
          response,
          502,
          format === null || format === ANTHROPIC_MESSAGES ? 'api_error' : 'server_error',
          `upstream unreachable (${error.message})`,
          format,
        );
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
}
