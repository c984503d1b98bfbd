// One wire format the live proxy reads and edits: which requests are its own, where each tool
// output's value lies in the agent's bytes (so stubs are spliced in and everything else, encrypted
// reasoning included, goes upstream byte-identical), the request as the engine reads it (Anthropic
// Messages shape), the exact usage of a response and the API's own error shape. The policy in
// rewrite.ts (trigger, stubs, sticky edits, keep/drop, recall) is the same for every format.
import type { MessageBlock } from '../../engine';
import type { Result } from '../../sessions/types';
import type { ProxyUsage } from '../events';
import type { WireMessage } from '../wire';

export const FORMAT_NAMES = ['anthropic-messages', 'openai-responses', 'openai-chat', 'gemini'] as const;
export type FormatName = (typeof FORMAT_NAMES)[number];

/** Where one tool output's value lies, [start, end) in bytes; `start === end` when it has none (Anthropic only). */
export interface ToolResultSpan {
  toolUseId: string;
  start: number;
  end: number;
}

export interface BodyScan {
  model: string | null;
  stream: boolean;
  /** What names the conversation beside its first message (Anthropic's `metadata.user_id`, a cache key). */
  seed: unknown;
  /** The agent's own session id when the request names one. */
  agentSession: string | null;
  /** The first message's bytes: with the seed it names the session, and it never changes as the conversation grows. */
  firstMessage: Buffer;
  /** The agent loop offers tools; side calls (titles, topics) do not. */
  hasTools: boolean;
  /** The tool outputs the model is sent, in order. */
  toolResults: ToolResultSpan[];
  /** How many engine messages the request holds: the next response becomes the message at this index. */
  messageCount: number;
}

/** The request as the engine reads it: one engine message per message (or input item) of the request. */
export interface EngineRequest {
  system?: string | MessageBlock[];
  tools?: Record<string, unknown>[];
  messages: WireMessage[];
}

/** Usage figures as the events keep them: `inputTokens` is the uncached part, so the three input counts add up to the prompt. */
export type UsagePart = Partial<ProxyUsage>;

export interface UsageReader {
  /** Substrings one of which an SSE `data:` line must hold to be parsed at all (content deltas are skipped). */
  readonly markers: readonly string[];
  /** The usage one parsed SSE event carries, if any (later events overwrite earlier figures). */
  fromEvent(event: unknown): UsagePart | null;
  /** The usage of a JSON response body. */
  fromJson(body: unknown): UsagePart | null;
}

export interface WireFormat {
  readonly name: FormatName;
  /** Whether the request (method, path without query) is one this format reads. */
  matches(method: string, path: string): boolean;
  /** The shape and the places the proxy may edit, or why it cannot read it (then the bytes go as they came). */
  scan(raw: Buffer, path: string): Result<BodyScan, string>;
  /** The whole request as the engine reads it: only a batch or a new drop needs it. */
  parse(raw: Buffer): Result<EngineRequest, string>;
  /** The bytes that take the place of a tool output's value. */
  encodeStub(text: string): Buffer;
  /** The agent session from a body not scanned (below the trigger), when cheap to find; else null. */
  agentSessionInBody(raw: Buffer): string | null;
  /** The id of the last tool call the body carries, found from its end without a scan; null when none. */
  toolCallInBody(raw: Buffer): string | null;
  readonly usage: UsageReader;
  /** The API's own error body, so the agent's client reports a refusal like any API error. */
  errorBody(status: number, type: string, message: string): string;
  /** What ends a cut event stream so the client raises an error; null: the stream is cut (the client sees a broken connection). */
  streamError(message: string): string | null;
}

/** A non-negative integer count, else undefined. */
export const count = (value: unknown): number | undefined => (typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : undefined);

export const record = (value: unknown): Record<string, unknown> | null =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;

/**
 * OpenAI and Gemini count cached tokens inside the input: the events keep the uncached part as
 * `inputTokens` and the cached one as `cacheReadTokens`, so the three input counts add up to the
 * prompt for every format.
 */
export function cachedInside(input: unknown, cached: unknown, output: unknown): UsagePart | null {
  const total = count(input);
  if (total === undefined) return null;
  const read = Math.min(total, count(cached) ?? 0);
  return { inputTokens: total - read, cacheReadTokens: read, cacheCreationTokens: 0, ...(count(output) === undefined ? {} : { outputTokens: count(output) }) };
}

/** The request's JSON, parsed: a format's `parse` starts here. */
export function parsedJson(raw: Buffer): Result<Record<string, unknown>, string> {
  try {
    const value: unknown = JSON.parse(raw.toString('utf8'));
    const object = record(value);
    return object ? { ok: true, value: object } : { ok: false, error: 'unknown shape: body is not a JSON object' };
  } catch {
    return { ok: false, error: 'unknown shape: body is not JSON' };
  }
}

/** A tool call's arguments as an object: JSON text as sent by OpenAI's APIs, anything else kept under `arguments`. */
export function argumentsOf(raw: unknown): Record<string, unknown> {
  if (typeof raw !== 'string') return record(raw) ?? {};
  try {
    return record(JSON.parse(raw)) ?? { arguments: raw };
  } catch {
    return { arguments: raw };
  }
}

/** Text parts of OpenAI content (a string, or parts with `text`) as engine blocks; other parts keep their type, so they are never stubbed. */
export function textBlocks(content: unknown): MessageBlock[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  if (!Array.isArray(content)) return [];
  return content.map((part: unknown) => {
    const value = record(part);
    return typeof value?.text === 'string' ? { type: 'text', text: value.text } : { type: String(value?.type ?? 'content') };
  });
}
