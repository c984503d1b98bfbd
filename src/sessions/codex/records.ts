// Codex rollout records: `{timestamp, ordinal?, type, payload}` per line (shared/design/codex.md).
// Rollouts are written by many Codex versions, so every field is optional and checked before use;
// a record that lacks what we need is skipped, never trusted (with the shared field guards).
import { num, obj, str } from '../common/fields';
import type { LocatedJson } from '../common/jsonRecords';

export { num, obj, str };

/** One parsed rollout line. `payload` is checked by the accessors below. */
export interface RolloutRecord {
  timestamp?: unknown;
  type?: unknown;
  payload?: unknown;
  [key: string]: unknown;
}

/** A record together with where it was read. */
export type LocatedRollout = LocatedJson<RolloutRecord>;

/**
 * Types Codex 0.169.0 writes. Anything else is counted as unknown so an upgrade that adds record
 * types shows up in diagnostics instead of silently changing what we read.
 */
export const KNOWN_ROLLOUT_TYPES = new Set(['session_meta', 'turn_context', 'response_item', 'event_msg', 'compacted', 'world_state', 'token_usage_record']);

/** An item of the model's history (a response_item payload or a replacement_history entry). */
export interface HistoryItem {
  type: string;
  role?: unknown;
  content?: unknown;
  call_id?: unknown;
  name?: unknown;
  arguments?: unknown;
  input?: unknown;
  output?: unknown;
  summary?: unknown;
  [key: string]: unknown;
}

export function payloadOf(record: RolloutRecord): Record<string, unknown> | null {
  return obj(record.payload);
}

export function timestampOf(record: RolloutRecord): string | null {
  return str(record.timestamp);
}

export function asHistoryItem(value: unknown): HistoryItem | null {
  const item = obj(value);
  return item !== null && typeof item.type === 'string' ? (item as HistoryItem) : null;
}

/** The history item a `response_item` record carries. */
export function responseItemOf(record: RolloutRecord): HistoryItem | null {
  return record.type === 'response_item' ? asHistoryItem(record.payload) : null;
}

/** The `event_msg` subtype (`token_count`, `task_started`…), or null. */
export function eventTypeOf(record: RolloutRecord): string | null {
  return record.type === 'event_msg' ? str(payloadOf(record)?.type) : null;
}

/** Items the model produced (they end a request); everything else in the history is its input. */
const MODEL_OUTPUT_TYPES = new Set([
  'reasoning',
  'function_call',
  'custom_tool_call',
  'local_shell_call',
  'web_search_call',
  'tool_search_call',
  'image_generation_call',
]);
const TOOL_OUTPUT_TYPES = new Set(['function_call_output', 'custom_tool_call_output', 'tool_search_output']);

export function isModelOutput(item: HistoryItem): boolean {
  return MODEL_OUTPUT_TYPES.has(item.type) || (item.type === 'message' && item.role === 'assistant');
}

export function isToolCall(item: HistoryItem): boolean {
  return item.type === 'function_call' || item.type === 'custom_tool_call' || item.type === 'local_shell_call';
}

export function isToolOutput(item: HistoryItem): boolean {
  return TOOL_OUTPUT_TYPES.has(item.type);
}

export function callIdOf(item: HistoryItem): string | null {
  return str(item.call_id);
}

/**
 * Codex's own compaction items (0.117+: the server's `compaction`, alias `compaction_summary`, and
 * `context_compaction`): the summary of everything before, encrypted. Opaque to us, so a fork keeps
 * them verbatim and nothing of ours summarises or stubs them.
 */
const OPAQUE_COMPACTION_TYPES = new Set(['compaction', 'compaction_summary', 'context_compaction']);

export function isOpaqueCompaction(item: HistoryItem): boolean {
  return OPAQUE_COMPACTION_TYPES.has(item.type);
}

/**
 * Tokens of an opaque compaction item as Codex itself estimates them (codex-rs context_manager,
 * `estimate_reasoning_length`): the base64 text decodes to 3/4 of its length, less 650 bytes of
 * envelope, at 4 bytes a token (rounded up).
 */
export function opaqueCompactionTokens(item: HistoryItem): number {
  const encoded = str(item.encrypted_content)?.length ?? 0;
  const bytes = Math.max(0, Math.floor((encoded * 3) / 4) - 650);
  return Math.ceil(bytes / 4);
}

/** Text of a message item: its `input_text` / `output_text` parts, or a bare string. */
export function messageText(item: HistoryItem): string {
  if (typeof item.content === 'string') return item.content;
  if (!Array.isArray(item.content)) return '';
  return item.content
    .flatMap((part) => {
      const text = obj(part)?.text;
      return typeof text === 'string' ? [text] : [];
    })
    .join('\n');
}

/** A tool output as text: a string, or content items (text parts kept, images as placeholders). */
export function outputText(item: HistoryItem): string {
  const output = item.output;
  if (typeof output === 'string') return output;
  const parts = Array.isArray(output) ? output : Array.isArray(obj(output)?.content) ? (obj(output)?.content as unknown[]) : null;
  if (parts === null) return output === undefined || output === null ? '' : JSON.stringify(output);
  return parts
    .map((part) => {
      const text = obj(part)?.text;
      return typeof text === 'string' ? text : `[${str(obj(part)?.type) ?? 'content'}]`;
    })
    .join('\n');
}

/** Reasoning summary text (the encrypted content is opaque). */
export function reasoningText(item: HistoryItem): string {
  const parts = [...(Array.isArray(item.summary) ? item.summary : []), ...(Array.isArray(item.content) ? item.content : [])];
  return parts
    .flatMap((part) => {
      const text = obj(part)?.text;
      return typeof text === 'string' ? [text] : [];
    })
    .join('\n');
}

/** Token counts of one response (`info.last_token_usage`); `input` includes the cached part. */
export interface CodexUsage {
  input: number;
  cached: number;
  cacheWrite: number;
  output: number;
  reasoning: number;
  total: number;
}

/** 100× the largest context window: a count above it is damage, not a reading. */
const MAX_USAGE_TOKENS = 100_000_000;

function tokenCount(value: unknown): number | null {
  const count = num(value);
  return count !== null && Number.isInteger(count) && count >= 0 && count <= MAX_USAGE_TOKENS ? count : null;
}

export interface TokenCountEvent {
  /** Null when the event carries no (valid) last usage. */
  last: CodexUsage | null;
  /** `info.model_context_window`: the window Codex itself works with. */
  window: number | null;
}

/** A `token_count` event's usage and window, or null when `record` is not one. */
export function tokenCountOf(record: RolloutRecord): TokenCountEvent | null {
  if (eventTypeOf(record) !== 'token_count') return null;
  const info = obj(payloadOf(record)?.info);
  const last = obj(info?.last_token_usage);
  const input = tokenCount(last?.input_tokens);
  const output = tokenCount(last?.output_tokens);
  const usage: CodexUsage | null =
    input === null || output === null
      ? null
      : {
          input,
          cached: Math.min(input, tokenCount(last?.cached_input_tokens) ?? 0),
          cacheWrite: tokenCount(last?.cache_write_input_tokens) ?? 0,
          output,
          reasoning: tokenCount(last?.reasoning_output_tokens) ?? 0,
          total: tokenCount(last?.total_tokens) ?? input + output,
        };
  return { last: usage, window: tokenCount(info?.model_context_window) };
}

/** The window a `task_started` event announces. */
export function taskWindowOf(record: RolloutRecord): number | null {
  return eventTypeOf(record) === 'task_started' ? tokenCount(payloadOf(record)?.model_context_window) : null;
}

/** The model a `turn_context` names. */
export function turnModelOf(record: RolloutRecord): string | null {
  return record.type === 'turn_context' ? str(payloadOf(record)?.model) : null;
}

/** Written into what Context Lens's Apply writes (session_meta and the compacted record). */
export const CONTEXT_LENS_KEY = 'context_lens';
export const CONTEXT_LENS_WRITER = 'context-lens';

export interface CodexForkMark {
  sourceSessionId: string | null;
  sourceTitle: string | null;
  /** The fork's own title, when its writer gave one. */
  title: string | null;
}

/** Our mark in a session_meta or compacted payload, or null on the agent's own records. */
export function contextLensMark(record: RolloutRecord): CodexForkMark | null {
  const mark = obj(payloadOf(record)?.[CONTEXT_LENS_KEY]);
  if (mark === null || mark.writer !== CONTEXT_LENS_WRITER) return null;
  return { sourceSessionId: str(mark.source_session_id), sourceTitle: str(mark.source_title), title: str(mark.title) };
}

/** Codex's own context it injects as user messages (environment, AGENTS.md…), not typed by the person. */
const INJECTED_USER_TEXT = /^\s*<(environment_context|user_instructions|user_shell_command|turn_aborted|subagent_notification)\b|^\s*# AGENTS\.md instructions/;

export function isInjectedUserText(text: string): boolean {
  return INJECTED_USER_TEXT.test(text);
}

/**
 * Rollout records carry no ids of their own (and history items not always), so items are named by
 * where they were read: `o<offset>` for a line, `o<offset>.r<index>` for an entry of a compacted
 * record's replacement_history. Offsets never change in an append-only file.
 */
export function itemRef(offset: number, replacementIndex?: number): string {
  return replacementIndex === undefined ? `o${offset}` : `o${offset}.r${replacementIndex}`;
}

export function parseItemRef(ref: string): { offset: number; replacementIndex: number | null } | null {
  const match = /^o(\d+)(?:\.r(\d+))?$/.exec(ref);
  if (!match) return null;
  return { offset: Number(match[1]), replacementIndex: match[2] === undefined ? null : Number(match[2]) };
}

/** The items a compacted record's history is replaced with (empty when it has none). */
export function replacementHistory(record: RolloutRecord): HistoryItem[] {
  const history = payloadOf(record)?.replacement_history;
  return Array.isArray(history) ? history.flatMap((value) => asHistoryItem(value) ?? []) : [];
}
