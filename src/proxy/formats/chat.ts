// OpenAI's Chat Completions (`POST …/chat/completions`: OpenCode's OpenAI-compatible providers and
// most other agents): `messages` whose assistant turns carry `tool_calls` and whose `role: "tool"`
// messages carry the outputs by `tool_call_id`. One engine message per message; only a tool
// message's `content` is ever replaced. Usage comes from the chunk that carries it (streamed with
// `stream_options.include_usage`) or the body; `prompt_tokens` holds the cached ones.
import { jsonStringStub } from '../scan';
import type { WireMessage } from '../wire';
import { argumentsOf, cachedInside, parsedJson, record, textBlocks, type UsagePart, type WireFormat } from './format';
import { openAIScan } from './openaiScan';
import { lastStringMemberInBody, sessionKeyInBody } from './scanning';

const scanChat = openAIScan({
  listKey: 'messages',
  entry: { kindKey: 'role', idKey: 'tool_call_id', valueKey: 'content', isOutput: (role) => role === 'tool', what: 'a message', kindRequired: true },
  stringAllowed: false,
  missing: 'no messages array',
  notArray: 'no messages array',
});

function messageOf(value: unknown): WireMessage {
  const entry = record(value) ?? {};
  if (entry.role === 'tool')
    return {
      role: 'user',
      content: [
        {
          type: 'tool_result',
          tool_use_id: String(entry.tool_call_id ?? ''),
          content: typeof entry.content === 'string' ? entry.content : textBlocks(entry.content),
        },
      ],
    };
  if (entry.role === 'assistant') {
    const calls = Array.isArray(entry.tool_calls) ? entry.tool_calls : [];
    const uses = calls.map((call: unknown) => {
      const fields = record(call) ?? {};
      const fn = record(fields.function) ?? {};
      return { type: 'tool_use', id: String(fields.id ?? ''), name: String(fn.name ?? 'tool'), input: argumentsOf(fn.arguments) };
    });
    return { role: 'assistant', content: [...textBlocks(entry.content), ...uses] };
  }
  return { role: entry.role === 'user' ? 'user' : 'system', content: textBlocks(entry.content) };
}

function usageOf(raw: unknown): UsagePart | null {
  const usage = record(raw);
  return usage ? cachedInside(usage.prompt_tokens, record(usage.prompt_tokens_details)?.cached_tokens, usage.completion_tokens) : null;
}

export const OPENAI_CHAT: WireFormat = {
  name: 'openai-chat',
  matches: (method, path) => method === 'POST' && /\/chat\/completions$/.test(path),
  scan: scanChat,
  parse(raw) {
    const body = parsedJson(raw);
    if (!body.ok) return body;
    const { messages, tools } = body.value;
    if (!Array.isArray(messages)) return { ok: false, error: 'unknown shape: no messages array' };
    return {
      ok: true,
      value: { messages: messages.map(messageOf), ...(Array.isArray(tools) ? { tools: tools.map((tool: unknown) => record(tool) ?? {}) } : {}) },
    };
  },
  encodeStub: jsonStringStub,
  agentSessionInBody: (raw) => sessionKeyInBody(raw, 'prompt_cache_key'),
  toolCallInBody: (raw) => lastStringMemberInBody(raw, 'tool_call_id'),
  usage: {
    markers: ['"usage"'],
    fromEvent: (event) => usageOf(record(event)?.usage),
    fromJson: (body) => usageOf(record(body)?.usage),
  },
  errorBody: (_status, type, message) => JSON.stringify({ error: { message, type, param: null, code: null } }),
  // A chunk stream has no error event its clients agree on; cut, the client sees a broken response.
  streamError: () => null,
};
