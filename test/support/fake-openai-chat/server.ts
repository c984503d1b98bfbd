// A loopback stand-in for the OpenAI chat-completions API (what OpenCode's `@ai-sdk/openai-compatible`
// provider speaks), so the real OpenCode CLI runs offline. Streams every answer with a usage chunk
// (`stream_options.include_usage`) sized like the request: a stand-in that reports a fixed, large
// usage makes OpenCode auto-compact in a loop. Title and summarisation calls (told by their system
// prompt) are answered apart from the script, which answers the session's own turns in order.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { pathOf, readJsonBody, RequestLog, sendJson, startScriptedServer } from '../scriptedServer';
import { ChatUsageModel } from './usage';

export interface ChatMessage {
  role: string;
  content?: unknown;
  tool_calls?: { id: string; function: { name: string; arguments: string } }[];
  tool_call_id?: string;
}

export interface ChatRequest {
  model: string;
  messages: ChatMessage[];
  tools?: { function: { name: string } }[];
  stream?: boolean;
}

export interface ToolCall {
  name: string;
  arguments: Record<string, unknown>;
}

/** One answer: text, tool calls, or both. */
export interface ChatReply {
  text?: string;
  toolCalls?: ToolCall[];
}

export type ChatStep = ChatReply | ((request: ChatRequest) => ChatReply);

export type CallKind = 'title' | 'summary' | 'turn';

export interface LoggedChatRequest {
  n: number;
  kind: CallKind;
  /** The prompt tokens reported for it (cached ones included): the fill OpenCode should show. */
  prompt: number;
  body: ChatRequest;
}

export interface FakeChatOptions {
  /** The session's turns, in order; a turn request past the end is an error (answered 400). */
  readonly steps: readonly ChatStep[];
  readonly summary?: string;
  readonly logFile?: string;
}

export interface FakeChat {
  /** `http://127.0.0.1:<port>`; the provider's baseURL is this plus `/v1`. */
  readonly url: string;
  readonly requests: readonly LoggedChatRequest[];
  readonly errors: readonly Error[];
  stop(): Promise<void>;
}

const textOf = (content: unknown): string => (typeof content === 'string' ? content : JSON.stringify(content ?? ''));

export function kindOf(request: ChatRequest): CallKind {
  const system = request.messages
    .filter((message) => message.role === 'system')
    .map((message) => textOf(message.content))
    .join('\n');
  if (/title generator/i.test(system)) return 'title';
  if (/summariz/i.test(system) && (request.tools ?? []).length === 0) return 'summary';
  return 'turn';
}

export async function startFakeChat(options: FakeChatOptions): Promise<FakeChat> {
  const requests = new RequestLog<LoggedChatRequest>(options.logFile);
  const usage = new ChatUsageModel();
  let next = 0;
  let callId = 0;
  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const path = pathOf(request);
    if (request.method !== 'POST' || !path.endsWith('/chat/completions'))
      return sendJson(response, 404, { error: { message: `no route ${request.method} ${path}` } });
    const body = (await readJsonBody(request)) as ChatRequest;
    const kind = kindOf(body);
    let reply: ChatReply;
    if (kind === 'title') reply = { text: 'Offline session' };
    else if (kind === 'summary') reply = { text: options.summary ?? '## Goal\nThe offline test task.\n\n## Progress\nRead the files; nothing is left open.' };
    else {
      const step = options.steps[next++];
      if (step === undefined) throw new Error(`turn request ${next} has no scripted step (${options.steps.length} steps)`);
      reply = typeof step === 'function' ? step(body) : step;
    }
    const calls = (reply.toolCalls ?? []).map((call) => ({ id: `call_${++callId}`, name: call.name, arguments: JSON.stringify(call.arguments) }));
    const counted = usage.price(body, JSON.stringify(reply));
    requests.add({ n: requests.next, kind, prompt: counted.prompt_tokens, body });
    response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const chunk = (choices: unknown[], extra: Record<string, unknown> = {}): void => {
      response.write(
        `data: ${JSON.stringify({ id: `chatcmpl-${requests.next}`, object: 'chat.completion.chunk', created: 1_780_000_000, model: body.model, choices, ...extra })}\n\n`,
      );
    };
    chunk([{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }]);
    if (reply.text !== undefined) chunk([{ index: 0, delta: { content: reply.text }, finish_reason: null }]);
    calls.forEach((call, index) =>
      chunk([
        {
          index: 0,
          delta: { tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: call.arguments } }] },
          finish_reason: null,
        },
      ]),
    );
    chunk([{ index: 0, delta: {}, finish_reason: calls.length > 0 ? 'tool_calls' : 'stop' }]);
    chunk([], { usage: counted });
    response.end('data: [DONE]\n\n');
  };
  const server = await startScriptedServer(handle, (message) => ({ error: { message, type: 'invalid_request_error' } }));
  return { url: server.url, requests: requests.entries, errors: server.errors, stop: () => server.stop() };
}
