// A loopback stand-in for the OpenAI Responses API, driven by a scripted scenario, so the real
// Codex CLI runs offline and tests and fixtures see genuine rollouts. Turn requests are answered
// from the script (see script.ts), compaction requests with a handoff summary. Every request is
// logged (in memory and optionally to a JSONL file) so tests can inspect what the client sent.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { pathOf, readJsonBody, RequestLog, sendJson, startScriptedServer } from '../scriptedServer';
import { standIn, type StandIn, type StandInOptions } from '../standIn';
import { classify, lastItem, TURN_METADATA_HEADER, turnMetadata } from './request';
import { defaultSummary, message, OpenAIScript } from './script';
import type { LoggedRequest, Reply, ResponsesRequest, Scenario, Usage } from './types';
import { UsageModel } from './usage';
import { outputItems, sseEvents } from './wire';

export type FakeOpenAIOptions = StandInOptions<Scenario>;
/** A started stand-in; its `url` (`http://127.0.0.1:<port>`): the provider's base_url is this plus `/v1`. */
export type FakeOpenAI = StandIn<LoggedRequest>;

/** Headers worth keeping in the log; credentials are never logged. */
const LOGGED_HEADERS = ['user-agent', 'originator', 'session_id', 'x-codex-window-id', TURN_METADATA_HEADER];

export async function startFakeOpenAI(options: FakeOpenAIOptions): Promise<FakeOpenAI> {
  const { scenario } = options;
  const requests = new RequestLog<LoggedRequest>(options.logFile);
  const usageModel = new UsageModel();
  const cursor = new OpenAIScript(scenario);
  let responses = 0;
  let items = 0;
  let calls = 0;

  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const body = await readJsonBody(request);
    const path = pathOf(request);
    const metadataHeader = request.headers[TURN_METADATA_HEADER];
    const metadata = turnMetadata(typeof metadataHeader === 'string' ? metadataHeader : undefined);
    const headers: Record<string, unknown> = {};
    for (const name of LOGGED_HEADERS) {
      const value = request.headers[name];
      if (typeof value === 'string') headers[name] = name === TURN_METADATA_HEADER ? (metadata ?? value) : value;
    }
    const base = { seq: requests.next, method: request.method ?? 'GET', path, headers, body };
    const kind = classify(path, body, metadata);
    if (kind === 'other') {
      // Probes (model lists, anything a newer client tries) get a harmless empty answer.
      requests.add({ ...base, kind });
      sendJson(response, 404, { error: { message: `The stand-in does not serve ${request.method} ${path}` } });
      return;
    }

    const responsesRequest = body as ResponsesRequest;
    const last = lastItem(responsesRequest);
    const chosen =
      kind === 'compaction'
        ? { reply: { items: [message((scenario.summary ?? defaultSummary)(responsesRequest))] } as Reply, position: null }
        : cursor.answer(responsesRequest, last);
    responses += 1;
    // Deterministic ids keep re-recorded fixtures stable where the client adds no randomness.
    const output = outputItems(chosen.reply.items, {
      responseId: `resp_fake${responses}`,
      itemId: (prefix) => `${prefix}_fake${String(++items).padStart(6, '0')}`,
      callId: () => `call_fake${String(++calls).padStart(6, '0')}`,
    });
    cursor.issued(
      chosen.position,
      output.flatMap((item) => (typeof item.call_id === 'string' ? [item.call_id] : [])),
    );
    const usage: Usage = { ...usageModel.price(responsesRequest, chosen.reply.items), ...chosen.reply.usage };
    requests.add({ ...base, kind, usage });
    response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    for (const event of sseEvents(output, usage, `resp_fake${responses}`)) response.write(event);
    response.end();
  };

  // A scripted step that throws is a test bug: answered with a 400, which ends the run.
  const server = await startScriptedServer(handle, (message) => ({ error: { type: 'invalid_request_error', message } }));
  return standIn(server, requests);
}
