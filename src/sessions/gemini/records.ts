// Gemini CLI chat records (checked against the CLI 0.61 source, ChatRecordingService): a chat file
// is JSON lines of four kinds, told apart by their keys, not by a type field:
//   header   {sessionId, projectHash, startTime, lastUpdated, kind, …}  (merged into the metadata)
//   message  {id, timestamp, type: user|gemini|info|error|warning, content, thoughts, tokens, model, toolCalls}
//   $set     {"$set": {…}}       metadata patch; `$set.messages` replaces the whole history
//   rewind   {"$rewindTo": id}   drops that message and every later one
// Older CLIs (0.1x–0.2x) wrote one JSON object per file ({…header, messages: […]}). Every field is
// optional and checked before use: a record lacking what we need is skipped, never trusted.

import { num, obj, str } from '../common/fields';
import { SUMMARY_PREAMBLE } from '../common/forkTexts';
import type { LocatedJson } from '../common/jsonRecords';
import { plannedSizesOf, type AgentId, type PlannedSizes } from '../types';

/** The adapter's id. (`AgentId` becomes a plain string with issue 25's port; the cast goes then.) */
export const GEMINI_AGENT: AgentId = 'gemini';

// The field guards every adapter shares, re-exported so the rest of gemini/ imports records only.
export { num, obj, str };

/** One parsed line (or the legacy file's object). */
export type ChatRecord = Record<string, unknown>;

/** A record with where it was read; `end` is the byte offset just past its newline. */
export type LocatedRecord = LocatedJson<ChatRecord>;

/** A message of the conversation as the CLI stores it (only `id` is guaranteed). */
export interface MessageRecord {
  id: string;
  type?: unknown;
  timestamp?: unknown;
  content?: unknown;
  thoughts?: unknown;
  tokens?: unknown;
  model?: unknown;
  toolCalls?: unknown;
  [key: string]: unknown;
}

export function asMessage(value: unknown): MessageRecord | null {
  const record = obj(value);
  return record !== null && typeof record.id === 'string' ? (record as MessageRecord) : null;
}

export function rewindTarget(record: ChatRecord): string | null {
  return str(record.$rewindTo);
}

export function setPatch(record: ChatRecord): Record<string, unknown> | null {
  return obj(record.$set);
}

/** The header line (and the legacy whole-file object): it names the session and its project. */
export function isHeader(record: ChatRecord): boolean {
  return typeof record.sessionId === 'string' && typeof record.projectHash === 'string';
}

/** Token counts of one response, as `recordMessageTokens` copies the API's usageMetadata. */
export interface GeminiTokens {
  /** promptTokenCount: the whole prompt, `cached` included. */
  input: number;
  /** candidatesTokenCount: the answer, thoughts not included. */
  output: number;
  cached: number;
  thoughts: number;
  tool: number;
}

/** 100× the largest window the CLI knows (1,048,576): a count above it is damage, not a reading. */
const MAX_TOKENS = 100 * 1_048_576;

function count(value: unknown): number | null {
  const found = num(value);
  return found !== null && Number.isInteger(found) && found >= 0 && found <= MAX_TOKENS ? found : null;
}

/**
 * The counts of a gemini message, or null without a usable `input`. A zero input is no reading:
 * old CLIs wrote all-zero tokens on a message whose usage never arrived.
 */
export function tokensOf(message: MessageRecord): GeminiTokens | null {
  if (message.type !== 'gemini') return null;
  const tokens = obj(message.tokens);
  const input = count(tokens?.input);
  if (tokens === null || input === null || input === 0) return null;
  return {
    input,
    output: count(tokens.output) ?? 0,
    cached: Math.min(input, count(tokens.cached) ?? 0),
    thoughts: count(tokens.thoughts) ?? 0,
    tool: count(tokens.tool) ?? 0,
  };
}

export function modelOf(message: MessageRecord): string | null {
  return message.type === 'gemini' ? str(message.model) : null;
}

/** `content` as a list of parts: a bare string is one text part (as the CLI's ensurePartArray). */
export function partsOf(content: unknown): Record<string, unknown>[] {
  const list = Array.isArray(content) ? content : content === undefined || content === null ? [] : [content];
  return list.flatMap((part: unknown): Record<string, unknown>[] => {
    if (typeof part === 'string') return [{ text: part }];
    const found = obj(part);
    return found === null ? [] : [found];
  });
}

/** The text parts of `content`, joined (thought parts left out). */
export function textOf(content: unknown): string {
  return partsOf(content)
    .flatMap((part) => (typeof part.text === 'string' && part.thought !== true ? [part.text] : []))
    .join('');
}

/**
 * User content the CLI never sends back on resume (slash commands, `?` help) or sets up itself
 * (`<session_context>`, `<hook_context>`): not a prompt, never a title.
 */
export function isHarnessOrCommand(text: string): boolean {
  const trimmed = text.trim();
  return (
    trimmed === '' || trimmed.startsWith('/') || trimmed.startsWith('?') || trimmed.startsWith('<session_context>') || trimmed.startsWith('<hook_context>')
  );
}

export function isSessionContext(text: string): boolean {
  const trimmed = text.trim();
  return trimmed.startsWith('<session_context>') || trimmed.startsWith('<hook_context>');
}

/** A prompt the person typed: a user message the CLI would resume with. */
export function promptOf(message: MessageRecord): string | null {
  if (message.type !== 'user') return null;
  const text = textOf(message.content);
  return isHarnessOrCommand(text) ? null : text.trim();
}

/** Whether the CLI counts a message as something to resume (its `isResumableMessageRecord`). */
export function isResumable(message: MessageRecord): boolean {
  if (message.type === 'user') return promptOf(message) !== null || partsOf(message.content).some((part) => obj(part.functionResponse) !== null);
  if (message.type !== 'gemini') return false;
  const calls = Array.isArray(message.toolCalls) ? message.toolCalls.length : 0;
  const thoughts = Array.isArray(message.thoughts) ? message.thoughts.length : 0;
  return textOf(message.content).trim() !== '' || calls > 0 || thoughts > 0;
}

/** What the CLI's compression puts first: its summary, as a user message. */
const SNAPSHOT_OPEN = '<state_snapshot>';
/** And the model's answer it writes right after the summary. */
export const SNAPSHOT_ACK = 'Got it. Thanks for the additional context!';

/** The CLI's own compression summary (`<state_snapshot>…`). */
export function isSnapshotSummary(message: MessageRecord): boolean {
  return message.type === 'user' && textOf(message.content).trimStart().startsWith(SNAPSHOT_OPEN);
}

/** The summary a fork Context Lens wrote opens with (the fork writer puts SUMMARY_PREAMBLE first). */
export function isForkSummary(message: MessageRecord): boolean {
  return message.type === 'user' && textOf(message.content).trimStart().startsWith(SUMMARY_PREAMBLE);
}

/** A summary that replaced earlier history: the CLI's compression or our fork's. */
export function isSummary(message: MessageRecord): boolean {
  return isSnapshotSummary(message) || isForkSummary(message);
}

/** The header field Context Lens's fork writer adds (agreed with the writer, fork.ts). */
export const FORK_MARK_KEY = 'contextLens';

export interface GeminiForkMark {
  /** The source session. */
  sessionId: string | null;
  title: string | null;
  /** What the fork writer recorded of the compaction (summary without preamble, focus, fill before and after). */
  summary: string | null;
  focus: string | null;
  preTokens: number | null;
  postTokens: number | null;
  /** The last message the fork wrote: `postTokens` counts everything up to it. */
  lastId: string | null;
  /** The sizes the compaction planned the fork with (absent in forks written before they were kept). */
  planned?: PlannedSizes;
}

/**
 * `{"contextLens": {"forkOf": {sessionId, title}, summary, focus, preTokens, postTokens}}` on a
 * header (as the fork writer, fork.ts, writes it), or null on the CLI's own.
 */
export function forkMarkOf(record: ChatRecord): GeminiForkMark | null {
  const mark = obj(record[FORK_MARK_KEY]);
  const forkOf = obj(mark?.forkOf);
  if (mark === null || forkOf === null) return null;
  const planned = plannedSizesOf(mark.planned);
  return {
    sessionId: str(forkOf.sessionId),
    title: str(forkOf.title),
    summary: str(mark.summary),
    focus: str(mark.focus),
    preTokens: num(mark.preTokens),
    postTokens: num(mark.postTokens),
    lastId: str(mark.lastId),
    ...(planned ? { planned } : {}),
  };
}

/** JSON text of a value someone else wrote, never throwing (a cycle cannot come from JSON, but depth can). */
export function jsonText(value: unknown): string {
  try {
    return JSON.stringify(value) ?? '';
  } catch {
    return '[unprintable]';
  }
}
