// OpenAI's Responses API (`POST …/responses`, Codex CLI): `input` items, `function_call` /
// `function_call_output` pairs sharing a `call_id`, `reasoning` items whose `encrypted_content` only
// the provider reads. Each item is one engine message; only the outputs' values are ever replaced,
// so every other byte (reasoning included) goes upstream as the agent sent it. Codex names its
// conversation in `prompt_cache_key`. Usage comes from `response.completed`; `input_tokens` holds
// the cached ones.
import { jsonStringStub } from '../scan';
import type { WireMessage } from '../wire';
import { argumentsOf, cachedInside, parsedJson, record, textBlocks, type UsagePart, type WireFormat } from './format';
import { openAIScan } from './openaiScan';
import { lastStringMemberInBody, sessionKeyInBody } from './scanning';

const OUTPUTS = new Set(['function_call_output', 'custom_tool_call_output']);

const scanResponses = openAIScan({
  listKey: 'input',
  entry: { kindKey: 'type', idKey: 'call_id', valueKey: 'output', isOutput: (type) => OUTPUTS.has(type), what: 'an input item', kindRequired: false },
  stringAllowed: true,
  missing: 'no input',
  notArray: 'input of unknown shape',
});

/** One input item as one engine message. */
function messageOf(value: unknown): WireMessage {
  const entry = record(value) ?? {};
  const type = entry.type ?? 'message';
  const id = String(entry.call_id ?? '');
  switch (type) {
    case 'message': {
      const role = entry.role === 'assistant' ? 'assistant' : entry.role === 'user' ? 'user' : 'system';
      return { role, content: textBlocks(entry.content) };
    }
    case 'function_call':
      return { role: 'assistant', content: [{ type: 'tool_use', id, name: String(entry.name ?? 'tool'), input: argumentsOf(entry.arguments) }] };
    case 'custom_tool_call':
      return { role: 'assistant', content: [{ type: 'tool_use', id, name: String(entry.name ?? 'tool'), input: { input: String(entry.input ?? '') } }] };
    case 'function_call_output':
    case 'custom_tool_call_output':
      return {
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: id, content: typeof entry.output === 'string' ? entry.output : textBlocks(entry.output) }],
      };
    case 'reasoning': {
      const summary = Array.isArray(entry.summary) ? entry.summary.map((part: unknown) => String(record(part)?.text ?? '')).join('\n') : '';
      return { role: 'assistant', content: [{ type: 'thinking', thinking: summary }] };
    }
    default:
      // Calls of the provider's own tools, compaction items: read by no tier, never edited.
      return { role: 'assistant', content: [{ type: 'text', text: `[${String(type).slice(0, 60)}]` }] };
  }
}

function usageOf(raw: unknown): UsagePart | null {
  const usage = record(raw);
  return usage ? cachedInside(usage.input_tokens, record(usage.input_tokens_details)?.cached_tokens, usage.output_tokens) : null;
}

export const OPENAI_RESPONSES: WireFormat = {
  name: 'openai-responses',
  matches: (method, path) => method === 'POST' && /\/responses$/.test(path),
  scan: scanResponses,
  parse(raw) {
    const body = parsedJson(raw);
    if (!body.ok) return body;
    const { input, instructions, tools } = body.value;
    const messages = typeof input === 'string' ? [{ role: 'user' as const, content: input }] : Array.isArray(input) ? input.map(messageOf) : null;
    if (!messages) return { ok: false, error: 'unknown shape: no input' };
    return {
      ok: true,
      value: {
        messages,
        ...(typeof instructions === 'string' ? { system: instructions } : {}),
        ...(Array.isArray(tools) ? { tools: tools.map((tool: unknown) => record(tool) ?? {}) } : {}),
      },
    };
  },
  encodeStub: jsonStringStub,
  agentSessionInBody: (raw) => sessionKeyInBody(raw, 'prompt_cache_key'),
  toolCallInBody: (raw) => lastStringMemberInBody(raw, 'call_id'),
  usage: {
    markers: ['"response.completed"', '"response.incomplete"', '"response.failed"'],
    fromEvent: (event) => usageOf(record(record(event)?.response)?.usage),
    fromJson: (body) => usageOf(record(body)?.usage),
  },
  errorBody: (_status, type, message) => JSON.stringify({ error: { message, type, param: null, code: null } }),
  // Codex and OpenAI's SDKs raise `response.failed` as the response's error.
  streamError: (message) =>
    `event: response.failed\ndata: ${JSON.stringify({ type: 'response.failed', response: { id: 'resp_context_lens_proxy', object: 'response', status: 'failed', error: { code: 'server_error', message } } })}\n\n`,
};
