// A loopback stand-in for the Gemini API, driven by a scripted scenario, so the real Gemini CLI
// runs offline and tests and fixtures see genuine chat files. Turn requests are answered from the
// script (see script.ts), the CLI's compression passes with a <state_snapshot>, its structured side
// calls from their JSON schema. Every request is logged (in memory and optionally to a JSONL file)
// so tests can inspect what the client sent.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { loggedHeaders, pathOf, readJsonBody, RequestLog, sendJson, startScriptedServer } from '../scriptedServer';
import { standIn, type StandIn, type StandInOptions } from '../standIn';
import { classify, routeOf } from './request';
import { responseSchema, valueFor } from './schema';
import { defaultSummary, GeminiScript, reply, text } from './script';
import type { GeminiRequest, LoggedRequest, Reply, Scenario, UsageMetadata } from './types';
import { responseBody, sseEvent, usageFor, wireParts } from './wire';

export type FakeGeminiOptions = StandInOptions<Scenario>;
/** A started stand-in; its `url` (`http://127.0.0.1:<port>`): the CLI's GOOGLE_GEMINI_BASE_URL. */
export type FakeGemini = StandIn<LoggedRequest>;

/** Headers worth keeping in the log; the API key header is never logged. */
const LOGGED_HEADERS = ['user-agent', 'x-goog-api-client'];

export async function startFakeGemini(options: FakeGeminiOptions): Promise<FakeGemini> {
  const { scenario } = options;
  const requests = new RequestLog<LoggedRequest>(options.logFile);
  const script = new GeminiScript(scenario);
  let responses = 0;
  let calls = 0;

  const answerFor = (kind: LoggedRequest['kind'], request: GeminiRequest): { reply: Reply; position: ReturnType<GeminiScript['answer']>['position'] } => {
    if (kind === 'compression') return { reply: reply(text((scenario.summary ?? defaultSummary)(request))), position: null };
    if (kind === 'json') return { reply: reply(text(JSON.stringify(valueFor(responseSchema(request.generationConfig))))), position: null };
    return script.answer(request);
  };

  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const body = await readJsonBody(request);
    const path = pathOf(request);
    const route = routeOf(path);
    const kind = classify(route, body);
    const base = {
      seq: requests.next,
      method: request.method ?? 'GET',
      path,
      model: route?.model ?? null,
      stream: route?.stream ?? false,
      headers: loggedHeaders(request, LOGGED_HEADERS),
      body,
    };
    if (route === null || kind === 'other') {
      // Probes (model lists, token counts, anything a newer client tries) get a plain 404.
      requests.add({ ...base, kind: 'other' });
      sendJson(response, 404, { error: { code: 404, message: `The stand-in does not serve ${request.method} ${path}`, status: 'NOT_FOUND' } });
      return;
    }
    const geminiRequest = body as GeminiRequest;
    const chosen = answerFor(kind, geminiRequest);
    responses += 1;
    const callIds: string[] = [];
    // Deterministic ids keep re-recorded fixtures stable where the client adds no randomness.
    const parts = wireParts(chosen.reply.parts, () => {
      const id = `call_fake${String(++calls).padStart(6, '0')}`;
      callIds.push(id);
      return id;
    });
    script.issued(chosen.position, callIds);
    const usage: UsageMetadata = { ...usageFor(geminiRequest, parts), ...chosen.reply.usage };
    requests.add({ ...base, kind, usage });
    const answer = responseBody(parts, usage, route.model, `resp_fake${responses}`);
    if (!route.stream) return sendJson(response, 200, answer);
    response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    response.end(sseEvent(answer));
  };

  // A scripted step that throws is a test bug: answered with a 400, which ends the run.
  const server = await startScriptedServer(handle, (message) => ({ error: { code: 400, message, status: 'INVALID_ARGUMENT' } }));
  return standIn(server, requests);
}
