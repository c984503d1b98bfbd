// A loopback stand-in for the Anthropic Messages API, driven by a scripted scenario. It lets the
// real Claude Code CLI run offline so tests and fixtures see genuine transcripts. Main calls walk
// the script; subagent conversations walk the script attached to the Agent call that started
// them; side calls and /compact get their own answers without consuming either. Every request
// is logged (in memory and optionally to a JSONL file) so tests can inspect what the client sent.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { loggedHeaders, pathOf, readJsonBody, RequestLog, sendJson, startScriptedServer } from '../scriptedServer';
import { defaultCompact, defaultFallback, defaultSide } from './defaults';
import { classifyRequest, lastUserText, toolCalls, toolResults } from './request';
import { Subagents } from './subagents';
import type { CallKind, LoggedRequest, MessagesRequest, Reply, Scenario } from './types';
import { countTokens, UsageModel } from './usage';
import { messageJson, sseEvents, type WireIds } from './wire';

export interface FakeAnthropicOptions {
  readonly scenario: Scenario;
  /** Also append every logged request to this JSONL file. */
  readonly logFile?: string;
}

export interface FakeAnthropic {
  /** `http://127.0.0.1:<port>`: what ANTHROPIC_BASE_URL should be. */
  readonly url: string;
  /** Every request received so far, oldest first. */
  readonly requests: readonly LoggedRequest[];
  /** How many main calls the script has answered (fallback answers included). */
  readonly mainCalls: number;
  /** Errors thrown by scripted turns; each was answered with a 400 so the client stops. */
  readonly errors: readonly Error[];
  stop(): Promise<void>;
}

/** Headers worth keeping in the log; credentials are never logged. */
const LOGGED_HEADERS = ['anthropic-beta', 'anthropic-version', 'user-agent', 'x-app', 'x-claude-code-session-id'];

const requestId = (seq: number | string): Record<string, string> => ({ 'request-id': `req_fake_${seq}` });

export async function startFakeAnthropic(options: FakeAnthropicOptions): Promise<FakeAnthropic> {
  const { scenario } = options;
  const requests = new RequestLog<LoggedRequest>(options.logFile);
  const usageModel = new UsageModel();
  const subagents = new Subagents();
  let mainCalls = 0;
  let messages = 0;
  let toolUses = 0;

  const ids = (): WireIds => {
    messages += 1;
    // Deterministic ids keep re-recorded fixtures stable where the client does not add randomness.
    return { messageId: `msg_fake${String(messages).padStart(20, '0')}`, toolUseId: () => `toolu_fake${String(++toolUses).padStart(18, '0')}` };
  };

  const answer = (kind: CallKind, body: MessagesRequest): Reply => {
    if (kind === 'side') return (scenario.side ?? defaultSide)(body);
    if (kind === 'compact') return (scenario.compact ?? defaultCompact)(body);
    if (kind === 'subagent') return subagents.answer(body);
    const index = mainCalls++;
    const turn = scenario.turns[index] ?? scenario.fallback ?? defaultFallback;
    const reply = turn({ request: body, index, lastUserText: lastUserText(body), toolResults: toolResults(body), calls: toolCalls(body) });
    subagents.register(reply);
    return reply;
  };

  const classify = (body: MessagesRequest): CallKind => {
    const kind = (scenario.classify ?? classifyRequest)(body);
    // A subagent's own /compact stays a compact call; everything else it sends is its script's.
    return kind !== 'compact' && subagents.owns(body) ? 'subagent' : kind;
  };

  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const body = await readJsonBody(request);
    const path = pathOf(request);
    const base = { seq: requests.next, method: request.method ?? 'GET', path, headers: loggedHeaders(request, LOGGED_HEADERS), body };
    const isMessages = request.method === 'POST' && typeof body === 'object' && body !== null && 'messages' in body;

    if (isMessages && path === '/v1/messages/count_tokens') {
      requests.add({ ...base, kind: 'count_tokens' });
      sendJson(response, 200, { input_tokens: countTokens(body as MessagesRequest) }, requestId(base.seq));
      return;
    }
    if (!isMessages || path !== '/v1/messages') {
      // Probes (HEAD/GET of the base URL, telemetry the client might still try) get a harmless 200.
      requests.add({ ...base, kind: 'other' });
      sendJson(response, 200, {}, requestId(base.seq));
      return;
    }

    const messagesRequest = body as MessagesRequest;
    const kind = classify(messagesRequest);
    const reply = answer(kind, messagesRequest);
    const usage = usageModel.price(messagesRequest, reply.content);
    requests.add({ ...base, kind, usage });
    if (messagesRequest.stream) {
      response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', ...requestId(base.seq) });
      for (const event of sseEvents(reply, messagesRequest.model, usage, ids())) response.write(event);
      response.end();
    } else {
      sendJson(response, 200, messageJson(reply, messagesRequest.model, usage, ids()), requestId(base.seq));
    }
  };

  // A scripted turn that throws is a test bug: answered with a 400, which ends the run.
  const server = await startScriptedServer(handle, (message) => ({ type: 'error', error: { type: 'invalid_request_error', message } }));
  return {
    url: server.url,
    get requests() {
      return requests.entries;
    },
    errors: server.errors,
    get mainCalls() {
      return mainCalls;
    },
    stop: () => server.stop(),
  };
}
