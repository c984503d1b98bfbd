// A loopback stand-in for the OpenAI Responses API, driven by a scripted scenario, so the real
// Codex CLI runs offline and tests and fixtures see genuine rollouts. Turn requests are answered
// from the script (see script.ts), compaction requests with a handoff summary. Every request is
// logged (in memory and optionally to a JSONL file) so tests can inspect what the client sent.
import { appendFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import { classify, lastItem, TURN_METADATA_HEADER, turnMetadata } from './request';
import { defaultSummary, message, ScriptCursor } from './script';
import type { LoggedRequest, Reply, ResponsesRequest, Scenario, Usage } from './types';
import { UsageModel } from './usage';
import { outputItems, sseEvents } from './wire';

export interface FakeOpenAIOptions {
  readonly scenario: Scenario;
  /** Also append every logged request to this JSONL file. */
  readonly logFile?: string;
}

export interface FakeOpenAI {
  /** `http://127.0.0.1:<port>`; the provider's base_url is this plus `/v1`. */
  readonly url: string;
  /** Every request received so far, oldest first. */
  readonly requests: readonly LoggedRequest[];
  /** Errors thrown by scripted steps; each was answered with a 400 so the client stops. */
  readonly errors: readonly Error[];
  stop(): Promise<void>;
}

/** Headers worth keeping in the log; credentials are never logged. */
const LOGGED_HEADERS = ['user-agent', 'originator', 'session_id', 'x-codex-window-id', TURN_METADATA_HEADER];

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    request.on('data', (part: Buffer) => parts.push(part));
    request.on('error', reject);
    request.on('end', () => {
      const raw = Buffer.concat(parts);
      resolve((request.headers['content-encoding'] === 'gzip' ? gunzipSync(raw) : raw).toString('utf8'));
    });
  });
}

function parse(text: string): unknown {
  if (text === '') return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}

export async function startFakeOpenAI(options: FakeOpenAIOptions): Promise<FakeOpenAI> {
  const { scenario } = options;
  const requests: LoggedRequest[] = [];
  const errors: Error[] = [];
  const usageModel = new UsageModel();
  const cursor = new ScriptCursor(scenario);
  let responses = 0;
  let items = 0;
  let calls = 0;

  const log = (entry: LoggedRequest): void => {
    requests.push(entry);
    if (options.logFile) appendFileSync(options.logFile, `${JSON.stringify(entry)}\n`);
  };

  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const body = parse(await readBody(request));
    const path = (request.url ?? '/').split('?')[0] ?? '/';
    const metadataHeader = request.headers[TURN_METADATA_HEADER];
    const metadata = turnMetadata(typeof metadataHeader === 'string' ? metadataHeader : undefined);
    const headers: Record<string, unknown> = {};
    for (const name of LOGGED_HEADERS) {
      const value = request.headers[name];
      if (typeof value === 'string') headers[name] = name === TURN_METADATA_HEADER ? (metadata ?? value) : value;
    }
    const base = { seq: requests.length + 1, method: request.method ?? 'GET', path, headers, body };
    const kind = classify(path, body, metadata);
    if (kind === 'other') {
      // Probes (model lists, anything a newer client tries) get a harmless empty answer.
      log({ ...base, kind });
      sendJson(response, 404, { error: { message: `The stand-in does not serve ${request.method} ${path}` } });
      return;
    }

    const responsesRequest = body as ResponsesRequest;
    const last = lastItem(responsesRequest);
    const chosen = kind === 'compaction' ? { reply: { items: [message((scenario.summary ?? defaultSummary)(responsesRequest))] } as Reply, position: null } : cursor.answer(responsesRequest, last);
    responses += 1;
    // Deterministic ids keep re-recorded fixtures stable where the client adds no randomness.
    const output = outputItems(chosen.reply.items, {
      responseId: `resp_fake${responses}`,
      itemId: (prefix) => `${prefix}_fake${String(++items).padStart(6, '0')}`,
      callId: () => `call_fake${String(++calls).padStart(6, '0')}`,
    });
    cursor.issued(chosen.position, output.flatMap((item) => (typeof item.call_id === 'string' ? [item.call_id] : [])));
    const usage: Usage = { ...usageModel.price(responsesRequest, chosen.reply.items), ...chosen.reply.usage };
    log({ ...base, kind, usage });
    response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    for (const event of sseEvents(output, usage, `resp_fake${responses}`)) response.write(event);
    response.end();
  };

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      // A scripted step that throws is a test bug. A 400 is not retried, so the run ends instead
      // of replaying the request against the next step of the script.
      errors.push(error instanceof Error ? error : new Error(String(error)));
      const text = errors[errors.length - 1]?.message;
      if (!response.headersSent) sendJson(response, 400, { error: { type: 'invalid_request_error', message: text } });
      else response.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    errors,
    stop: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        // Keep-alive sockets would hold close() open until they time out.
        server.closeAllConnections();
      }),
  };
}
