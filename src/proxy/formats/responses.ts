// OpenAI's Responses API (`POST …/responses`, Codex CLI): `input` items, `function_call` /
// `function_call_output` pairs sharing a `call_id`, `reasoning` items whose `encrypted_content` only
// the provider reads. Each item is one engine message; only the outputs' values are ever replaced,
// so every other byte (reasoning included) goes upstream as the agent sent it. Codex names its
// conversation in `prompt_cache_key`. Usage comes from `response.completed`; `input_tokens` holds
// the cached ones.
import { FAILED, Keys, OPEN_ARRAY, OPEN_OBJECT, QUOTE, type JsonBytes } from '../jsonBytes';
import { jsonStringStub } from '../scan';
import { agentSessionIdOf } from '../session';
import type { WireMessage } from '../wire';
import { argumentsOf, cachedInside, parsedJson, record, textBlocks, type BodyScan, type UsagePart, type WireFormat } from './format';
import { lastStringMemberInBody, readString, scanObject, sessionKeyInBody } from './scanning';

const TOP = new Keys(['input', 'model', 'stream', 'tools', 'prompt_cache_key']);
const ITEM = new Keys(['type', 'call_id', 'output']);
const OUTPUTS = new Set(['function_call_output', 'custom_tool_call_output']);

/** One input item: a tool output's value joins the spans. */
function item(scanner: JsonBytes, at: number, scan: BodyScan): number {
  if (scanner.raw[at] !== OPEN_OBJECT) return scanner.refuse('an input item that is not an object');
  const read: { type?: string; callId?: string; output?: { start: number; end: number } } = {};
  const end = scanner.object(at, ITEM, (key, value) => {
    if (key === 'type' || key === 'call_id') {
      const string = readString(scanner, value);
      if (key === 'type') read.type = string.value;
      else read.callId = string.value;
      return string.end;
    }
    const after = scanner.skip(value);
    // Text or content parts: anything else is not an output the proxy may replace.
    if (key === 'output' && after !== FAILED && (scanner.raw[value] === QUOTE || scanner.raw[value] === OPEN_ARRAY)) read.output = { start: value, end: after };
    return after;
  });
  if (end === FAILED) return FAILED;
  if (read.type !== undefined && OUTPUTS.has(read.type) && read.callId !== undefined && read.output)
    scan.toolResults.push({ toolUseId: read.callId, ...read.output });
  return end;
}

function scanResponses(raw: Buffer): ReturnType<WireFormat['scan']> {
  const scan: BodyScan = {
    model: null,
    stream: false,
    seed: null,
    agentSession: null,
    firstMessage: Buffer.alloc(0),
    hasTools: false,
    toolResults: [],
    messageCount: 0,
  };
  let input = false;
  const scanned = scanObject(raw, TOP, (scanner, key, at) => {
    switch (key) {
      case 'input':
        input = true;
        if (raw[at] === QUOTE) {
          const end = scanner.stringEnd(at);
          scan.firstMessage = raw.subarray(at, Math.max(at, end));
          scan.messageCount = 1;
          return end;
        }
        if (raw[at] !== OPEN_ARRAY) return scanner.refuse('input of unknown shape');
        return scanner.array(at, (start) => {
          const end = item(scanner, start, scan);
          if (end !== FAILED && scan.messageCount === 0) scan.firstMessage = raw.subarray(start, end);
          scan.messageCount += 1;
          return end;
        });
      case 'tools':
        if (raw[at] !== OPEN_ARRAY) return scanner.refuse('tools of unknown shape');
        return scanner.array(at, (start) => {
          scan.hasTools = true;
          return scanner.skip(start);
        });
      case 'model':
      case 'prompt_cache_key': {
        const string = readString(scanner, at);
        if (key === 'model') scan.model = string.value ?? null;
        else scan.seed = string.value ?? null;
        return string.end;
      }
      case 'stream': {
        const end = scanner.skip(at);
        if (end !== FAILED) scan.stream = scanner.value(at, end) === true;
        return end;
      }
      default:
        return scanner.skip(at);
    }
  });
  if (!scanned.ok) return scanned;
  if (!input) return { ok: false, error: 'no input' };
  return { ok: true, value: { ...scan, agentSession: agentSessionIdOf(scan.seed) } };
}

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
