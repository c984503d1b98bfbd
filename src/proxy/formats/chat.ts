// OpenAI's Chat Completions (`POST …/chat/completions`: OpenCode's OpenAI-compatible providers and
// most other agents): `messages` whose assistant turns carry `tool_calls` and whose `role: "tool"`
// messages carry the outputs by `tool_call_id`. One engine message per message; only a tool
// message's `content` is ever replaced. Usage comes from the chunk that carries it (streamed with
// `stream_options.include_usage`) or the body; `prompt_tokens` holds the cached ones.
import { FAILED, Keys, OPEN_ARRAY, OPEN_OBJECT, QUOTE, type JsonBytes } from '../jsonBytes';
import { jsonStringStub } from '../scan';
import { agentSessionIdOf } from '../session';
import type { WireMessage } from '../wire';
import { argumentsOf, cachedInside, parsedJson, record, textBlocks, type BodyScan, type UsagePart, type WireFormat } from './format';
import { lastStringMemberInBody, readString, scanObject, sessionKeyInBody } from './scanning';

const TOP = new Keys(['messages', 'model', 'stream', 'tools', 'prompt_cache_key']);
const MESSAGE = new Keys(['role', 'tool_call_id', 'content']);

function message(scanner: JsonBytes, at: number, scan: BodyScan): number {
  if (scanner.raw[at] !== OPEN_OBJECT) return scanner.refuse('a message that is not an object');
  const read: { role?: string; id?: string; content?: { start: number; end: number } } = {};
  const end = scanner.object(at, MESSAGE, (key, value) => {
    if (key === 'role' || key === 'tool_call_id') {
      const string = readString(scanner, value);
      if (key === 'role') read.role = string.value;
      else read.id = string.value;
      return string.end;
    }
    const after = scanner.skip(value);
    if (key === 'content' && after !== FAILED && (scanner.raw[value] === QUOTE || scanner.raw[value] === OPEN_ARRAY))
      read.content = { start: value, end: after };
    return after;
  });
  if (end === FAILED) return FAILED;
  if (read.role === undefined) return scanner.refuse('a message without a role');
  if (read.role === 'tool' && read.id !== undefined && read.content) scan.toolResults.push({ toolUseId: read.id, ...read.content });
  return end;
}

function scanChat(raw: Buffer): ReturnType<WireFormat['scan']> {
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
  let messages = false;
  const scanned = scanObject(raw, TOP, (scanner, key, at) => {
    switch (key) {
      case 'messages':
        messages = true;
        if (raw[at] !== OPEN_ARRAY) return scanner.refuse('no messages array');
        return scanner.array(at, (start) => {
          const end = message(scanner, start, scan);
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
  if (!messages) return { ok: false, error: 'no messages array' };
  return { ok: true, value: { ...scan, agentSession: agentSessionIdOf(scan.seed) } };
}

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
