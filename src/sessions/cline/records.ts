// One Cline session read whole, in either layout, as one list of messages with the usage of the
// call that produced each answer. Cline rewrites its files whole on every message, so there are no
// lines to follow: each read parses the files again (capped, regular files only).
// - SDK layout: `<id>.messages.json` `{messages: [{id, role, content, ts, modelInfo, metrics}]}`;
//   `metrics.inputTokens` is the whole prompt (the AI SDK's `inputTokens.total`, cache reads and
//   writes included: the CLI prices `inputTokens − cacheRead − cacheWrite` at the input rate); a user
//   message whose `metadata.kind` is `compaction_summary` is the SDK's own compaction.
// - Legacy layout: `api_conversation_history.json` (Anthropic messages) and `ui_messages.json`,
//   whose `say: "api_req_started"` messages carry each request's exact counts
//   `{tokensIn, tokensOut, cacheWrites, cacheReads, cost}`; the request made at
//   `conversationHistoryIndex` k is answered by history message k + 2. Cline counts the context of a
//   request as tokensIn + cacheWrites + cacheReads (its context-window bar and its truncation).
import { obj, num, str } from '../common/fields';
import { readRegularText, withoutBom } from '../common/regularFile';
import { fail, ok } from '../result';
import type { ContentBlock, Diagnostic, Result } from '../types';
import { join } from 'node:path';
import { placeOf, type ClinePlace } from './paths';

/** Our mark in a legacy task folder we wrote: whose fork it is and what its compaction planned. */
export const FORK_MARK = 'context_lens_fork.json';

/**
 * Cline's files are one JSON document each, parsed whole (a few times their size in memory): past
 * this a file is refused with its size rather than read. Tasks people publish are well under 2 MB.
 */
export const TRANSCRIPT_CAP = 64 * 1024 * 1024;

export interface ClineUsage {
  /** The whole prompt of the call (Cline's own count of its context). */
  prompt: number;
  cacheRead: number;
  cacheWrite: number;
  output: number;
  /** What Cline recorded the call cost, when it did. */
  cost: number | null;
}

export interface ClineMessage {
  /** Its id (SDK) or `h<index>` (legacy): the ref the live context's entries carry. */
  ref: string;
  role: 'user' | 'assistant';
  content: ContentBlock[];
  at: string | null;
  model: string | null;
  usage: ClineUsage | null;
  /** Opens the history after a compaction (the SDK's summary, or our fork's). */
  summary: boolean;
}

export interface ClineRequest {
  usage: ClineUsage;
  model: string | null;
  at: string | null;
}

export interface ClineTranscript {
  place: ClinePlace;
  messages: ClineMessage[];
  /** Every request the session paid for, counted once (legacy: every api_req_started with counts). */
  requests: ClineRequest[];
  /** Legacy: what its subagents' runs cost, one `say: "subagent_usage"` each (their sums, not per call). */
  subagentRequests: ClineRequest[];
  /** Legacy: the history range Cline's truncation took out of what it sends (inclusive). */
  deletedRange: [number, number] | null;
  /** Legacy `say: "compaction"` / changes of the deleted range: the agent's compactions, oldest first. */
  compactionNotes: { ref: string; at: string | null; preTokens: number | null; postTokens: number | null; trigger: string; summary: string | null }[];
  manifest: Record<string, unknown> | null;
  diagnostics: Diagnostic[];
}

const isoOf = (ms: number | null): string | null => (ms !== null && ms > 0 && ms < 8.64e15 ? new Date(ms).toISOString() : null);

async function readJson(path: string): Promise<Result<unknown>> {
  const text = await readRegularText(path, TRANSCRIPT_CAP);
  if (!text.ok) return text;
  if (text.value === null) return fail('not-found', `No such file: ${path}`, path);
  if (text.value.trim() === '') return fail('empty', `Empty file: ${path}`, path);
  try {
    return ok(JSON.parse(withoutBom(text.value)) as unknown);
  } catch (error) {
    return fail('invalid-input', `Not a JSON document Cline wrote (${(error as Error).message}): ${path}`, path);
  }
}

/** Content as blocks: a string becomes one text block; a tool result's non-block content its JSON text. */
export function blocksOf(content: unknown): ContentBlock[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  if (!Array.isArray(content)) return [];
  return content.flatMap((value): ContentBlock[] => {
    const block = obj(value);
    if (block === null || typeof block.type !== 'string') return [];
    if (block.type === 'tool_result' && block.content !== undefined && typeof block.content !== 'string') {
      const inner =
        Array.isArray(block.content) &&
        block.content.every((part) => typeof obj(part)?.type === 'string' && (obj(part)?.type === 'text' || obj(part)?.type === 'image'));
      if (!inner) return [{ ...block, type: 'tool_result', content: JSON.stringify(block.content) }];
    }
    return [block as ContentBlock];
  });
}

function sdkUsage(metrics: unknown): ClineUsage | null {
  const m = obj(metrics);
  const prompt = num(m?.inputTokens);
  if (m === null || prompt === null) return null;
  return { prompt, cacheRead: num(m.cacheReadTokens) ?? 0, cacheWrite: num(m.cacheWriteTokens) ?? 0, output: num(m.outputTokens) ?? 0, cost: num(m.cost) };
}

function modelOfInfo(info: unknown): string | null {
  const m = obj(info);
  return str(m?.id) ?? str(m?.modelId);
}

async function readSdk(place: Extract<ClinePlace, { layout: 'sdk' }>): Promise<Result<ClineTranscript>> {
  const read = await readJson(place.messages);
  if (!read.ok) return read;
  const root = obj(read.value);
  if (root === null || !Array.isArray(root.messages))
    return fail('invalid-input', `Not a Cline session's messages (no \`messages\` list): ${place.messages}`, place.messages);
  const manifestRead = await readJson(place.manifest);
  const whole = manifestRead.ok ? obj(manifestRead.value) : null;
  // A subagent's manifest is its parent's: where it ran, not the parent's own marks.
  const manifest =
    place.parentId === undefined || whole === null
      ? whole
      : { cwd: whole.cwd, workspace_root: whole.workspace_root, model: whole.model, metadata: { title: obj(whole.metadata)?.title } };
  const diagnostics: Diagnostic[] = [];
  const messages: ClineMessage[] = [];
  const compactionNotes: ClineTranscript['compactionNotes'] = [];
  root.messages.forEach((value, index) => {
    const m = obj(value);
    const role = m?.role;
    if (m === null || (role !== 'user' && role !== 'assistant')) {
      diagnostics.push({ severity: 'warning', code: 'unknown-record', message: `Message ${index} is not a user or assistant message`, path: place.messages });
      return;
    }
    const kind = str(obj(m.metadata)?.kind);
    messages.push({
      ref: str(m.id) ?? `m${index}`,
      role,
      content: blocksOf(m.content),
      at: isoOf(num(m.ts)),
      model: modelOfInfo(m.modelInfo),
      usage: role === 'assistant' ? sdkUsage(m.metrics) : null,
      summary: kind === 'compaction_summary' || obj(m.metadata)?.contextLensFork === true,
    });
    if (kind === 'compaction_summary') {
      const text =
        str(obj(m.metadata)?.summary) ??
        blocksOf(m.content)
          .map((block) => (typeof block.text === 'string' ? block.text : ''))
          .join('\n');
      compactionNotes.push({ ref: str(m.id) ?? `m${index}`, at: isoOf(num(m.ts)), preTokens: null, postTokens: null, trigger: 'auto', summary: text || null });
    }
  });
  const requests = messages.flatMap((message) => (message.usage === null ? [] : [{ usage: message.usage, model: message.model, at: message.at }]));
  return ok({ place, messages, requests, subagentRequests: [], deletedRange: null, compactionNotes, manifest, diagnostics });
}

function legacyUsage(text: unknown): ClineUsage | null {
  if (typeof text !== 'string') return null;
  let parsed: Record<string, unknown> | null;
  try {
    parsed = obj(JSON.parse(text));
  } catch {
    return null;
  }
  const tokensIn = num(parsed?.tokensIn);
  if (parsed === null || tokensIn === null) return null;
  const cacheRead = num(parsed.cacheReads) ?? 0;
  const cacheWrite = num(parsed.cacheWrites) ?? 0;
  return { prompt: tokensIn + cacheRead + cacheWrite, cacheRead, cacheWrite, output: num(parsed.tokensOut) ?? 0, cost: num(parsed.cost) };
}

const rangeOf = (value: unknown): [number, number] | null =>
  Array.isArray(value) && value.length === 2 && value.every((n) => Number.isInteger(n) && (n as number) >= 0) ? [value[0] as number, value[1] as number] : null;

async function readLegacy(place: Extract<ClinePlace, { layout: 'legacy' }>): Promise<Result<ClineTranscript>> {
  const read = await readJson(place.history);
  if (!read.ok) return read;
  if (!Array.isArray(read.value)) return fail('invalid-input', `Not a Cline task's history (not a list of messages): ${place.history}`, place.history);
  const diagnostics: Diagnostic[] = [];
  const uiRead = await readJson(place.ui);
  if (!uiRead.ok && uiRead.error.code !== 'not-found')
    diagnostics.push({
      severity: 'warning',
      code: 'ui-messages-unreadable',
      message: `${uiRead.error.message}: the task's exact counts are not read`,
      path: place.ui,
    });
  const ui = uiRead.ok && Array.isArray(uiRead.value) ? uiRead.value.map(obj).filter((m): m is Record<string, unknown> => m !== null) : [];
  const messages: ClineMessage[] = [];
  (read.value as unknown[]).forEach((value, index) => {
    const m = obj(value);
    const role = m?.role;
    if (m === null || (role !== 'user' && role !== 'assistant')) {
      diagnostics.push({
        severity: 'warning',
        code: 'unknown-record',
        message: `History message ${index} is not a user or assistant message`,
        path: place.history,
      });
      return;
    }
    messages.push({ ref: `h${index}`, role, content: blocksOf(m.content), at: isoOf(num(m.ts)), model: modelOfInfo(m.modelInfo), usage: null, summary: false });
  });
  const requests: ClineRequest[] = [];
  const subagentRequests: ClineRequest[] = [];
  const compactionNotes: ClineTranscript['compactionNotes'] = [];
  let deletedRange: [number, number] | null = null;
  let lastPrompt: number | null = null;
  for (const message of ui) {
    const at = isoOf(num(message.ts));
    const range = rangeOf(message.conversationHistoryDeletedRange);
    if (range !== null && (deletedRange === null || range[0] !== deletedRange[0] || range[1] !== deletedRange[1])) {
      deletedRange = range;
      compactionNotes.push({
        ref: `ui${num(message.ts) ?? compactionNotes.length}`,
        at,
        preTokens: lastPrompt,
        postTokens: null,
        trigger: 'auto',
        summary: null,
      });
    }
    if (message.say === 'compaction') {
      const detail = (() => {
        try {
          return obj(JSON.parse(str(message.text) ?? ''));
        } catch {
          return null;
        }
      })();
      compactionNotes.push({
        ref: `ui${num(message.ts) ?? compactionNotes.length}`,
        at,
        preTokens: num(detail?.tokensBefore) ?? lastPrompt,
        postTokens: num(detail?.tokensAfter),
        trigger: str(detail?.mode) ?? 'auto',
        summary: str(detail?.summary),
      });
    }
    if (message.say === 'subagent_usage') {
      // `{source: "subagents", tokensIn, tokensOut, cacheWrites, cacheReads, cost}`: the subagents' sum.
      const usage = legacyUsage(message.text);
      if (usage !== null) subagentRequests.push({ usage, model: str(obj(message.modelInfo)?.modelId), at });
      continue;
    }
    if (message.say !== 'api_req_started') continue;
    const usage = legacyUsage(message.text);
    if (usage === null) continue;
    const model = str(obj(message.modelInfo)?.modelId);
    requests.push({ usage, model, at });
    lastPrompt = usage.prompt;
    // The request made when the history ended at k is answered by message k + 2 (its prompt was k + 1).
    const k = num(message.conversationHistoryIndex);
    const answer = k === null ? undefined : messages[k + 2];
    if (answer !== undefined && answer.role === 'assistant' && answer.ref === `h${k! + 2}`) {
      answer.usage = usage;
      answer.model ??= model;
    }
  }
  // A fork Context Lens wrote says so in a file of its own (the extension never reads it).
  const mark = await readJson(join(place.folder, FORK_MARK));
  const manifest = mark.ok && obj(mark.value) !== null ? { metadata: { contextLens: mark.value } } : null;
  return ok({ place, messages, requests, subagentRequests, deletedRange, compactionNotes, manifest, diagnostics });
}

export async function readTranscript(path: string): Promise<Result<ClineTranscript>> {
  const place = placeOf(path);
  if (place === null)
    return fail('invalid-input', `Not a Cline session file (a task's ${'api_conversation_history.json'} or a session's <id>.messages.json): ${path}`, path);
  return place.layout === 'sdk' ? readSdk(place) : readLegacy(place);
}
