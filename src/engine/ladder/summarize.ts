// Tier 4 (S9, S10, S13): summarise the aged span — everything before the recent window and the last
// tool uses that policy does not protect, inside the current turn too — into one structured summary
// item. When the run stops at the target only the oldest part needed to reach it is taken; a manual
// compaction without a target of the caller's takes the whole aged span. Dropped items are only ever those the summary replaces,
// and the caller archives the context before using the result.
import { distinctPhrases } from '../policy/epistemic';
import { describeImportance, importanceOf, keepThreshold, type Importance } from '../policy/importance';
import { redactSecrets } from '../redact';
import { buildSummaryPrompt } from '../summarizers/prompt';
import { summaryBody } from '../summarizers/foreignSummary';
import type { SummaryRequest } from '../summarizers/types';
import { countNew, type LadderState, type PlannedItem } from './state';
import { renderPinnedBlock } from '../verify';

export interface SummarySpan {
  /** Planned entries replaced by the summary, oldest first (previous summaries included). */
  entries: PlannedItem[];
  /** Where the summary goes: the position of the oldest entry it replaces. */
  insertIndex: number;
  previousSummaryIds: number[];
  tokens: number;
  /** Importance of the conversational items (for their reasons). */
  importance: Map<number, Importance>;
}

/**
 * Where the verbatim tail starts: the recent window, or earlier when the last `keepLastToolUses`
 * tool calls of the current turn reach further back — those are what the agent is acting on.
 */
export function verbatimTailStart(state: LadderState): number {
  const keep = Math.max(1, state.options.ageClear.keepLastToolUses);
  const uses = state.planned.slice(state.policy.openLoopStart).filter((planned) => planned.item.kind === 'tool_use');
  const oldestKept = uses[Math.max(0, uses.length - keep)]?.item;
  const useStart =
    oldestKept === undefined ? state.planned.length : state.planned.findIndex((planned) => planned.item.messageIndex === oldestKept.messageIndex);
  return Math.min(state.policy.recentStart, useStart);
}

/** Candidates: unprotected, aged (before the verbatim tail), not yet dropped. */
function candidates(state: LadderState): PlannedItem[] {
  return state.planned
    .slice(0, verbatimTailStart(state))
    .filter((planned) => planned.item.kind !== 'system' && planned.item.kind !== 'tools' && planned.protection === undefined && planned.fate !== 'dropped');
}

export function selectSummarySpan(state: LadderState): SummarySpan | undefined {
  const pool = candidates(state);
  if (pool.length === 0) return undefined;
  const chosen = new Set<PlannedItem>();
  const iterative = state.options.summary.iterative;
  if (iterative) for (const planned of pool) if (planned.item.kind === 'summary') chosen.add(planned);
  // Room the summary itself will take: the budget is an upper bound, so the target is still met.
  let projected = state.totalTokens + state.options.summary.maxTokens;
  for (const planned of chosen) projected -= planned.tokensAfter;
  const aim = state.targetTokens - pinnedReserve(state);
  for (const planned of pool) {
    if (!state.runAllTiers && projected <= aim) break;
    if (chosen.has(planned)) continue;
    chosen.add(planned);
    projected -= planned.tokensAfter;
  }
  // Close over tool pairs: a call whose result stays (or the reverse) would be rejected by the API.
  const byUseId = new Map<string, PlannedItem[]>();
  for (const planned of pool) if (planned.item.toolUseId) byUseId.set(planned.item.toolUseId, [...(byUseId.get(planned.item.toolUseId) ?? []), planned]);
  for (const planned of [...chosen]) for (const partner of byUseId.get(planned.item.toolUseId ?? '') ?? []) chosen.add(partner);

  const importance = importanceOf(state.context.items);
  const entries = keepImportant(
    state,
    pool.filter((planned) => chosen.has(planned)),
    importance,
  );
  const first = entries[0];
  if (!first) return undefined;
  return {
    entries,
    insertIndex: state.planned.indexOf(first),
    previousSummaryIds: iterative ? entries.filter((planned) => planned.item.kind === 'summary').map((planned) => planned.item.id) : [],
    tokens: entries.reduce((sum, planned) => sum + planned.tokensAfter, 0),
    importance,
  };
}

/**
 * What re-injecting every pinned constraint and open loop could add after the summary (compact.ts
 * carries back those the output lost): kept free under the target so the result, not only the plan,
 * meets it.
 */
function pinnedReserve(state: LadderState): number {
  const { constraints, openLoops, requests = [] } = state.policy.pinned;
  // A request is carried back only when its prompt is not kept whole.
  const loose = requests.filter((entry) => entry.sourceId === undefined || !state.policy.protections.has(entry.sourceId));
  const texts = [...constraints, ...openLoops, ...loose].map((entry) => entry.text);
  return texts.length === 0 ? 0 : countNew(state, renderPinnedBlock(texts));
}

// Not thinking: a thinking block belongs with the rest of its message.
const KEEPABLE = new Set(['user', 'assistant']);

/**
 * Room left under the target once the span is summarised goes to its most important messages,
 * kept verbatim (S23); the higher bar under budget pressure (S24) keeps fewer. A manual run
 * without a target of the caller's summarises the whole aged span and keeps none.
 */
function keepImportant(state: LadderState, entries: PlannedItem[], importance: Map<number, Importance>): PlannedItem[] {
  if (state.runAllTiers) return entries;
  const spanTokens = entries.reduce((sum, planned) => sum + planned.tokensAfter, 0);
  let room = state.targetTokens - pinnedReserve(state) - (state.totalTokens - spanTokens + state.options.summary.maxTokens);
  const threshold = keepThreshold(state.totalTokens, state.targetTokens);
  const ranked = entries
    .filter((planned) => KEEPABLE.has(planned.item.kind) && (importance.get(planned.item.id)?.score ?? 0) >= threshold)
    .sort((a, b) => (importance.get(b.item.id)?.score ?? 0) - (importance.get(a.item.id)?.score ?? 0));
  const kept = new Set<PlannedItem>();
  for (const planned of ranked) {
    if (planned.tokensAfter > room) continue;
    room -= planned.tokensAfter;
    kept.add(planned);
    const score = importance.get(planned.item.id);
    if (score) planned.reason = `kept verbatim: ${describeImportance(score)}, room left under the target`;
  }
  return entries.filter((planned) => !kept.has(planned));
}

export function summaryRequest(state: LadderState, span: SummarySpan): SummaryRequest {
  const previousIds = new Set(span.previousSummaryIds);
  const items = span.entries.filter((planned) => !previousIds.has(planned.item.id)).map((planned) => planned.item);
  const spanIds = new Set(span.entries.map((planned) => planned.item.id));
  const firstId = span.entries[0]?.item.id ?? Infinity;
  // What stays after the span, as written (a stubbed result still said what it said).
  const later = state.context.items.filter((item) => item.id > firstId && !spanIds.has(item.id) && item.kind !== 'system' && item.kind !== 'tools');
  const previous = span.entries.filter((planned) => previousIds.has(planned.item.id)).map((planned) => summaryBody(planned.item.text));
  const previousSummary = previous.length > 0 ? previous.join('\n\n') : undefined;
  const { summary } = state.options;
  const originalAsk = state.policy.originalAskId === undefined ? undefined : state.context.items[state.policy.originalAskId]?.text;
  const markers = span.entries
    .filter((planned) => planned.markers)
    .map((planned) => ({ itemId: planned.item.id, phrases: distinctPhrases(planned.markers ?? []) }));
  const promptInput = {
    items,
    later,
    ...(previousSummary ? { previousSummary } : {}),
    focus: state.options.focus,
    pinned: state.policy.pinned,
    maxTokens: summary.maxTokens,
    maxToolResultTokens: summary.pruneToolResultsBeforeSummary ? summary.maxToolResultTokensInPrompt : 0,
  };
  let prompt: string | undefined;
  return {
    items,
    later,
    ...(previousSummary ? { previousSummary } : {}),
    focus: state.options.focus,
    pinned: state.policy.pinned,
    markers,
    ...(originalAsk ? { originalAsk } : {}),
    ...(state.context.workspace ? { workspace: state.context.workspace } : {}),
    maxTokens: summary.maxTokens,
    // Built on first read: only LLM summarizers read it, and the live plan's heuristic never does.
    // Redacted: the span goes to a model that could quote a key back (and to a network).
    get prompt(): string {
      return (prompt ??= redactSecrets(buildSummaryPrompt(promptInput)));
    },
  };
}

/** Marks the span dropped; the summary item's own tokens are added by the caller. */
export function dropSpan(state: LadderState, span: SummarySpan, summaryLabel: string): void {
  for (const planned of span.entries) {
    state.totalTokens -= planned.tokensAfter;
    const markerNote = planned.markers ? ` — second thoughts kept in the summary: ${distinctPhrases(planned.markers).join(' · ')}` : '';
    const score = span.importance.get(planned.item.id);
    const importanceNote = score ? ` — ${describeImportance(score)}` : '';
    Object.assign(planned, {
      fate: 'dropped',
      reason: `summarised into ${summaryLabel} (archived)${markerNote}${importanceNote}`,
      tier: 'summarize',
      text: '',
      tokensAfter: 0,
    });
  }
}
