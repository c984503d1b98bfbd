// What Cline's model sees right now, rebuilt from one read of the session: the history after its
// newest compaction (the SDK's summary opens it; the legacy extension leaves out the range its
// truncation deleted), the exact fill from the newest answer's counts, the calls measured since, and
// every compaction Cline performed. A fork Context Lens wrote reads as its plan until its first call.
import { charEstimateTokenizer } from '../../engine';
import { obj } from '../common/fields';
import { ok } from '../result';
import {
  plannedSizesOf,
  type ApiMessage,
  type CompactionEvent,
  type ContextEntry,
  type EntryKind,
  type FillSnapshot,
  type LiveCall,
  type LiveContext,
  type Result,
  type SessionInfo,
  type UsageBreakdown,
} from '../types';
import { sessionInfoOf } from './listing';
import { readTranscript, type ClineMessage, type ClineTranscript, type ClineUsage } from './records';
import { clineCompactionPoint, clineWindow } from './window';

export interface ClineReadOptions {
  windowOverride?: number;
}

export function breakdownOf(usage: ClineUsage): UsageBreakdown {
  return {
    inputTokens: Math.max(0, usage.prompt - usage.cacheRead - usage.cacheWrite),
    cacheCreationInputTokens: usage.cacheWrite,
    cacheReadInputTokens: usage.cacheRead,
    outputTokens: usage.output,
  };
}

/** The messages Cline sends now, in order. */
export function liveMessagesOf(transcript: ClineTranscript): ClineMessage[] {
  const { messages, deletedRange } = transcript;
  const range = deletedRange;
  const kept =
    range === null
      ? messages
      : messages.filter((message) => {
          const index = Number(message.ref.slice(1));
          return !(index >= range[0] && index <= range[1]);
        });
  const summary = kept.findLastIndex((message) => message.summary);
  return summary < 0 ? kept : kept.slice(summary);
}

function kindOf(message: ClineMessage): EntryKind {
  if (message.summary) return 'compact-summary';
  if (message.role === 'assistant') return 'assistant';
  return message.content.length > 0 && message.content.every((block) => block.type === 'tool_result') ? 'tool-result' : 'user';
}

const estimate = (messages: readonly ApiMessage[]): number =>
  messages.reduce((sum, message) => sum + charEstimateTokenizer.count(JSON.stringify(message.content)), 0);

export interface BuiltContext {
  messages: ApiMessage[];
  entries: ContextEntry[];
  calls: LiveCall[];
}

export function buildContext(live: readonly ClineMessage[]): BuiltContext {
  const messages: ApiMessage[] = [];
  const entries: ContextEntry[] = [];
  const calls: LiveCall[] = [];
  for (const message of live) {
    if (message.content.length === 0) continue;
    const index = messages.length;
    messages.push({ role: message.role, content: message.content });
    entries.push({
      messageIndex: index,
      kind: kindOf(message),
      uuids: [message.ref],
      recordKinds: [kindOf(message)],
      lines: [],
      timestamp: message.at,
      toolUseIds: message.content.flatMap((block) => (block.type === 'tool_use' && typeof block.id === 'string' ? [block.id] : [])),
      toolResultIds: message.content.flatMap((block) => (block.type === 'tool_result' && typeof block.tool_use_id === 'string' ? [block.tool_use_id] : [])),
    });
    if (message.role === 'assistant' && message.usage !== null && message.usage.prompt > 0)
      calls.push({ from: index, to: index, usage: breakdownOf(message.usage), model: message.model, at: message.at });
  }
  return { messages, entries, calls };
}

export function fillOf(transcript: ClineTranscript, built: BuiltContext, options: ClineReadOptions, fallbackModel: string | null): FillSnapshot {
  const last = built.calls.at(-1);
  const model = last?.model ?? fallbackModel;
  const window = clineWindow(model);
  const override = options.windowOverride !== undefined && options.windowOverride > 0 ? options.windowOverride : null;
  const base = {
    windowTokens: override ?? window.tokens,
    windowSource: override !== null ? ('override' as const) : window.known ? ('model' as const) : ('default' as const),
    agentAutoCompactTokens: clineCompactionPoint(override ?? window.tokens),
    model,
  };
  if (last === undefined) {
    const mark = obj(obj(transcript.manifest?.metadata)?.contextLens);
    const postTokens = typeof mark?.postTokens === 'number' ? mark.postTokens : null;
    const everCounted = transcript.requests.length > 0;
    return {
      ...base,
      usedTokens: postTokens ?? 0,
      source: 'estimate',
      timestamp: null,
      outputTokensPending: 0,
      pendingTokens: postTokens === null ? estimate(built.messages) : 0,
      usage: null,
      accountedThrough: { uuid: null, endOffset: 0 },
      compactedSinceUsage: postTokens === null && everCounted && transcript.compactionNotes.length > 0,
    };
  }
  const usage = last.usage;
  return {
    ...base,
    usedTokens: usage.inputTokens + usage.cacheReadInputTokens + usage.cacheCreationInputTokens,
    source: 'usage',
    timestamp: last.at,
    outputTokensPending: usage.outputTokens,
    pendingTokens: estimate(built.messages.slice(last.to + 1)),
    usage,
    accountedThrough: { uuid: built.entries[last.to]?.uuids[0] ?? null, endOffset: 0 },
    compactedSinceUsage: false,
  };
}

export function compactionsOf(transcript: ClineTranscript): CompactionEvent[] {
  return transcript.compactionNotes.map((note) => ({
    uuid: note.ref,
    by: 'agent',
    timestamp: note.at,
    trigger: note.trigger,
    preTokens: note.preTokens,
    postTokens: note.postTokens,
    focus: null,
    summary: note.summary,
  }));
}

export async function readClineLiveContext(session: SessionInfo | null, path: string, options: ClineReadOptions = {}): Promise<Result<LiveContext>> {
  const read = await readTranscript(path);
  if (!read.ok) return read;
  const transcript = read.value;
  const info = session ?? (await sessionInfoOf(transcript));
  const built = buildContext(liveMessagesOf(transcript));
  const fill = fillOf(transcript, built, options, info.model);
  const mark = obj(obj(transcript.manifest?.metadata)?.contextLens);
  const planned = built.calls.length === 0 ? plannedSizesOf(mark?.planned) : undefined;
  return ok({
    session: info,
    source: 'chain',
    model: fill.model,
    messages: built.messages,
    entries: built.entries,
    fill,
    compactions: compactionsOf(transcript),
    diagnostics: transcript.diagnostics,
    calls: built.calls,
    ...(planned !== undefined ? { planned } : {}),
  } satisfies LiveContext);
}
