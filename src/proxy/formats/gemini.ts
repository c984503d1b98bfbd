// Google's Gemini API (`POST …/models/<model>:generateContent` and `:streamGenerateContent`, Gemini
// CLI): `contents` of `parts`, a model's `functionCall` answered by a `functionResponse` whose
// `response` object is the output. Calls often carry no id: the j-th response of a content pairs
// with the j-th call of the content before it, named by those places, which never change while the
// conversation grows. One engine message per content; only a response's `response` is replaced
// (by `{"output": stub}`). The model is in the path; usage in `usageMetadata`, whose
// `promptTokenCount` holds the cached ones.
import { FAILED, Keys, OPEN_ARRAY, OPEN_OBJECT, type JsonBytes } from '../jsonBytes';
import type { WireMessage } from '../wire';
import type { MessageBlock } from '../../engine';
import { cachedInside, count, parsedJson, record, type BodyScan, type UsagePart, type WireFormat } from './format';
import { readString, scanObject } from './scanning';

const TOP = new Keys(['contents', 'tools']);
const CONTENT = new Keys(['parts']);
const PART = new Keys(['functionResponse']);
const RESPONSE = new Keys(['id', 'response']);
const PATH = /\/models\/([^/:]+):(generateContent|streamGenerateContent)$/;

/** The id a call or its response goes by: its own, else its place. */
const placeId = (content: number, order: number): string => `gemini-call-${content}-${order}`;

/** One content: the `functionResponse` parts' `response` values join the spans. */
function content(scanner: JsonBytes, at: number, index: number, scan: BodyScan): number {
  if (scanner.raw[at] !== OPEN_OBJECT) return scanner.refuse('a content that is not an object');
  let order = 0;
  return scanner.object(at, CONTENT, (key, value) => {
    if (key !== 'parts') return scanner.skip(value);
    if (scanner.raw[value] !== OPEN_ARRAY) return scanner.refuse('parts of unknown shape');
    return scanner.array(value, (part) => {
      if (scanner.raw[part] !== OPEN_OBJECT) return scanner.refuse('a part that is not an object');
      return scanner.object(part, PART, (name, inner) => {
        if (name !== 'functionResponse') return scanner.skip(inner);
        if (scanner.raw[inner] !== OPEN_OBJECT) return scanner.refuse('a functionResponse of unknown shape');
        const read: { id?: string; response?: { start: number; end: number } } = {};
        const end = scanner.object(inner, RESPONSE, (field, start) => {
          if (field === 'id') {
            const string = readString(scanner, start);
            read.id = string.value;
            return string.end;
          }
          const after = scanner.skip(start);
          if (field === 'response' && after !== FAILED && scanner.raw[start] === OPEN_OBJECT) read.response = { start, end: after };
          return after;
        });
        if (end !== FAILED && read.response) scan.toolResults.push({ toolUseId: read.id ?? placeId(index - 1, order), ...read.response });
        order += 1;
        return end;
      });
    });
  });
}

function scanGemini(raw: Buffer, path: string): ReturnType<WireFormat['scan']> {
  const scan: BodyScan = {
    model: PATH.exec(path)?.[1]?.slice(0, 100) ?? null,
    stream: path.endsWith(':streamGenerateContent'),
    seed: null,
    agentSession: null,
    firstMessage: Buffer.alloc(0),
    hasTools: false,
    toolResults: [],
    messageCount: 0,
  };
  let contents = false;
  const scanned = scanObject(raw, TOP, (scanner, key, at) => {
    if (key === 'tools') {
      if (raw[at] !== OPEN_ARRAY) return scanner.refuse('tools of unknown shape');
      return scanner.array(at, (start) => {
        scan.hasTools = true;
        return scanner.skip(start);
      });
    }
    if (key !== 'contents') return scanner.skip(at);
    contents = true;
    if (raw[at] !== OPEN_ARRAY) return scanner.refuse('no contents array');
    return scanner.array(at, (start) => {
      const end = content(scanner, start, scan.messageCount, scan);
      if (end !== FAILED && scan.messageCount === 0) scan.firstMessage = raw.subarray(start, end);
      scan.messageCount += 1;
      return end;
    });
  });
  if (!scanned.ok) return scanned;
  if (!contents) return { ok: false, error: 'no contents array' };
  return { ok: true, value: scan };
}

const FUNCTION_RESPONSE = '"functionResponse":{';
/** How far past the last functionResponse its `id` is looked for: the walk runs on the proxy's main thread. */
export const MAX_ID_WALK = 4 * 1024 * 1024;
// Bytes as local constants: an imported binding is a property read per byte where modules are not bundled.
const QUOTE_BYTE = 0x22;
const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;
const COLON = 0x3a;
const BACKSLASH = 0x5c;
const I = 0x69;
const D = 0x64;

/** The index of the quote closing the string that opens at `at`, or -1 before `end`. */
function stringClose(raw: Buffer, at: number, end: number): number {
  let from = at + 1;
  for (;;) {
    const quote = raw.indexOf(QUOTE_BYTE, from);
    if (quote === -1 || quote >= end) return -1;
    let backslashes = 0;
    while (raw[quote - 1 - backslashes] === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return quote;
    from = quote + 1;
  }
}

const spaceAfter = (raw: Buffer, at: number): number => {
  while (raw[at] === 0x20 || raw[at] === 0x0a || raw[at] === 0x0d || raw[at] === 0x09) at++;
  return at;
};

/**
 * The `id` of the body's last functionResponse, read from its end without a scan: Gemini CLI sends
 * `{"name":…,"response":{…},"id":"…"}`, the id after the (large) output, so the object is walked
 * with a depth count (no stack: a hostile nesting costs no memory) and strings jumped natively,
 * at most MAX_ID_WALK bytes. Null without one.
 */
function toolCallInBody(raw: Buffer): string | null {
  const at = raw.lastIndexOf(FUNCTION_RESPONSE);
  if (at === -1) return null;
  const end = Math.min(raw.length, at + MAX_ID_WALK);
  let depth = 0;
  for (let index = at + FUNCTION_RESPONSE.length - 1; index < end; index++) {
    const byte = raw[index];
    if (byte === QUOTE_BYTE) {
      const close = stringClose(raw, index, end);
      if (close === -1) return null;
      // A key of the object itself (depth 1, a colon after it) named `id`: its value is the call's id.
      if (depth === 1 && close === index + 3 && raw[index + 1] === I && raw[index + 2] === D) {
        const colon = spaceAfter(raw, close + 1);
        const value = raw[colon] === COLON ? spaceAfter(raw, colon + 1) : -1;
        if (value !== -1 && raw[value] === QUOTE_BYTE) {
          const valueEnd = stringClose(raw, value, end);
          if (valueEnd === -1 || valueEnd - value - 1 > 200) return null;
          const id = raw.toString('utf8', value + 1, valueEnd);
          return id === '' || id.includes('\\') ? null : id;
        }
      }
      index = close;
      continue;
    }
    if (byte === OPEN_BRACE || byte === OPEN_BRACKET) depth++;
    else if (byte === CLOSE_BRACE || byte === CLOSE_BRACKET) {
      depth--;
      if (depth === 0) return null;
    }
  }
  return null;
}

function partBlock(value: unknown, index: number, order: { calls: number; responses: number }): MessageBlock {
  const part = record(value) ?? {};
  const call = record(part.functionCall);
  if (call)
    return {
      type: 'tool_use',
      id: typeof call.id === 'string' ? call.id : placeId(index, order.calls++),
      name: String(call.name ?? 'tool'),
      input: record(call.args) ?? {},
    };
  const response = record(part.functionResponse);
  if (response) {
    const id = typeof response.id === 'string' ? response.id : placeId(index - 1, order.responses);
    order.responses += 1;
    const output = record(response.response);
    return { type: 'tool_result', tool_use_id: id, content: typeof output?.output === 'string' ? output.output : JSON.stringify(output ?? null) };
  }
  if (typeof part.text === 'string') return part.thought === true ? { type: 'thinking', thinking: part.text } : { type: 'text', text: part.text };
  return { type: Object.keys(part)[0] ?? 'part' };
}

function messageOf(value: unknown, index: number): WireMessage {
  const entry = record(value) ?? {};
  const order = { calls: 0, responses: 0 };
  const parts = Array.isArray(entry.parts) ? entry.parts : [];
  return { role: entry.role === 'model' ? 'assistant' : 'user', content: parts.map((part: unknown) => partBlock(part, index, order)) };
}

function usageOf(raw: unknown): UsagePart | null {
  const usage = record(raw);
  if (!usage) return null;
  const output = (count(usage.candidatesTokenCount) ?? 0) + (count(usage.thoughtsTokenCount) ?? 0);
  return cachedInside(usage.promptTokenCount, usage.cachedContentTokenCount, output);
}

export const GEMINI: WireFormat = {
  name: 'gemini',
  matches: (method, path) => method === 'POST' && PATH.test(path),
  scan: scanGemini,
  parse(raw) {
    const body = parsedJson(raw);
    if (!body.ok) return body;
    const { contents, systemInstruction, tools } = body.value;
    if (!Array.isArray(contents)) return { ok: false, error: 'unknown shape: no contents array' };
    const instruction = record(systemInstruction);
    const system = Array.isArray(instruction?.parts)
      ? instruction.parts.map((part: unknown) => String(record(part)?.text ?? '')).join('\n')
      : typeof systemInstruction === 'string'
        ? systemInstruction
        : undefined;
    const declared = Array.isArray(tools)
      ? tools.flatMap((tool: unknown) => {
          const list = record(tool)?.functionDeclarations;
          return Array.isArray(list) ? list.map((entry: unknown) => record(entry) ?? {}) : [record(tool) ?? {}];
        })
      : undefined;
    return { ok: true, value: { messages: contents.map(messageOf), ...(system === undefined ? {} : { system }), ...(declared ? { tools: declared } : {}) } };
  },
  encodeStub: (text) => Buffer.from(JSON.stringify({ output: text }), 'utf8'),
  agentSessionInBody: () => null,
  toolCallInBody,
  usage: {
    markers: ['"usageMetadata"'],
    fromEvent: (event) => usageOf(record(event)?.usageMetadata),
    // `streamGenerateContent` without `alt=sse` answers one JSON array of chunks: the last usage counts.
    fromJson: (body) =>
      Array.isArray(body)
        ? body.reduce<UsagePart | null>((found, chunk) => usageOf(record(chunk)?.usageMetadata) ?? found, null)
        : usageOf(record(body)?.usageMetadata),
  },
  errorBody: (status, type, message) => JSON.stringify({ error: { code: status, message, status: type } }),
  streamError: () => null,
};
