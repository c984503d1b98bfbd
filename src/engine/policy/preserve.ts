// The preservation policy (S15, S16, S3): which items no tier may touch, and why. Computed once per
// plan; every tier consults it, so "pinned items always survive verbatim" holds by construction.
import type { Context, ContextItem } from '../model';
import type { EngineOptions } from '../options';
import { pinnableSummaryText } from '../summarizers/foreignSummary';
import { describeMarkers, distinctPhrases, findEpistemicMarkers, markerThreshold, type MarkerHit } from './epistemic';
import { focusMatcher } from './focus';
import { buildPinnedSet, extractMarkedPins, extractPins, pinCount, type ExtractedPins, type PinnedSet } from './pinned';
import { tagBudget } from './classify';
import { promptBudgetTokens, promptsWithinBudget } from './prompts';

export type ProtectionKind =
  'head' | 'choice' | 'original-ask' | 'latest-prompt' | 'pinned' | 'prompt' | 'recent' | 'in-flight' | 'epistemic' | 'focus' | 'pair';

export const KEPT_BY_YOU = 'your choice (keep)';
export const DROPPED_BY_YOU = 'your choice (drop)';

export interface Protection {
  kind: ProtectionKind;
  reason: string;
}

export interface PolicyAnalysis {
  protections: Map<number, Protection>;
  /** Index (into `context.items`) where the verbatim recent window begins. */
  recentStart: number;
  /** Index where the open loop (the latest user turn) begins: its prompt is kept, its aged part may be summarised. */
  openLoopStart: number;
  originalAskId: number | undefined;
  pinned: PinnedSet;
  /** Marker hits per item (assistant text and thinking), for reasons, summaries and UI highlights. */
  markers: Map<number, MarkerHit[]>;
  focusMatches: Set<number>;
  /** Items the person chose to drop, closed over tool pairs; no tier touches them and the ladder drops them first. */
  dropped: Set<number>;
}

const CONVERSATIONAL = new Set(['user', 'assistant', 'thinking', 'tool_use']);

function clip(text: string, max = 80): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}

/** Tool calls and results by `toolUseId`: a pair is kept or dropped whole, the API rejects a split one. */
function pairsByUseId(items: readonly ContextItem[]): Map<string, ContextItem[]> {
  const byUseId = new Map<string, ContextItem[]>();
  for (const item of items) {
    if (item.toolUseId && (item.kind === 'tool_use' || item.kind === 'tool_result'))
      byUseId.set(item.toolUseId, [...(byUseId.get(item.toolUseId) ?? []), item]);
  }
  return byUseId;
}

/** `ids` and the other side of every tool pair among them. */
function withPartners(items: readonly ContextItem[], ids: Iterable<number>, byUseId: Map<string, ContextItem[]>): Set<number> {
  const closed = new Set<number>();
  for (const id of ids) {
    const item = items[id];
    if (!item) continue;
    closed.add(id);
    for (const partner of item.toolUseId ? (byUseId.get(item.toolUseId) ?? []) : []) closed.add(partner.id);
  }
  return closed;
}

/**
 * The person's choices as sets of ids. Keep wins over drop (also across a pair); the head and a call
 * still waiting for its result cannot be dropped: the first is not part of the conversation, the
 * second is what the agent is doing right now.
 */
export function userChoices(items: readonly ContextItem[], options: EngineOptions, byUseId = pairsByUseId(items)): { keep: Set<number>; drop: Set<number> } {
  const keep = withPartners(items, options.choices.keep, byUseId);
  const drop = new Set<number>();
  for (const id of withPartners(items, options.choices.drop, byUseId)) {
    const item = items[id];
    if (!item || keep.has(id) || item.kind === 'system' || item.kind === 'tools') continue;
    if (item.kind === 'tool_use' && (byUseId.get(item.toolUseId ?? '') ?? []).length < 2) continue;
    drop.add(id);
  }
  // A pair one side of which could not be dropped stays whole.
  for (const id of [...drop]) {
    const useId = items[id]?.toolUseId;
    if (useId && (byUseId.get(useId) ?? []).some((partner) => !drop.has(partner.id))) drop.delete(id);
  }
  return { keep, drop };
}

/**
 * The recent window: the last `recentTurns` exchanges (an exchange is two messages, seed 000) or the
 * last `recentPercent` of the window in tokens, whichever reaches further back. It starts on a
 * message boundary; a window opening on tool results is widened to include their calls.
 */
export function recentWindowStart(context: Context, options: EngineOptions): number {
  const { items } = context;
  const minMessages = options.preserve.recentTurns * 2;
  const minTokens = (context.windowTokens * options.preserve.recentPercent) / 100;
  let messages = 0;
  let tokens = 0;
  let start = items.length;
  let index = items.length - 1;
  while (index >= 0 && (messages < minMessages || tokens < minTokens)) {
    const messageIndex = items[index]?.messageIndex ?? -1;
    if (messageIndex < 0) break;
    while (index >= 0 && items[index]?.messageIndex === messageIndex) tokens += items[index--]?.tokens ?? 0;
    messages += 1;
    start = index + 1;
  }
  const first = items[start];
  if (first?.kind === 'tool_result' && start > 0) {
    const callMessage = items[start - 1]?.messageIndex;
    while (start > 0 && items[start - 1]?.messageIndex === callMessage && callMessage !== undefined && callMessage >= 0) start -= 1;
  }
  return start;
}

/**
 * The open loop: the message holding the latest user text and everything after it — what the agent
 * is working on right now. Its prompt is always kept and so are its last tool uses (see the summary
 * tier); a long autonomous turn is otherwise compacted like any span, or the session that needs
 * compaction most could never be summarised. Without user text there is no open loop.
 */
export function openLoopStart(items: readonly ContextItem[]): number {
  const last = items.findLastIndex((item) => item.kind === 'user');
  if (last < 0) return items.length;
  const messageIndex = items[last]?.messageIndex;
  let start = last;
  while (start > 0 && items[start - 1]?.messageIndex === messageIndex) start -= 1;
  return start;
}

/** The user text of the message that opens the open loop. */
export function latestPrompt(items: readonly ContextItem[], loopStart = openLoopStart(items)): ContextItem[] {
  const message = items[loopStart]?.messageIndex;
  return message === undefined ? [] : items.filter((item) => item.kind === 'user' && item.messageIndex === message);
}

type Protect = (item: ContextItem, protection: Protection) => void;

/** What the person typed, protected: the original ask, the latest prompt and prompts within their budget whole, the rest's pins extracted. */
function protectPrompts(
  context: Context,
  options: EngineOptions,
  protect: Protect,
): { extracted: { id: number; pins: ExtractedPins }[]; latest: ContextItem[]; loopStart: number } {
  const { items } = context;
  const originalAsk = items.find((item) => item.kind === 'user');
  // What the person typed, before the recent window: a prompt kept for being theirs is never cut
  // with the recent window when escalation has to go further.
  const extracted: { id: number; pins: ExtractedPins }[] = [];
  // Text blocks only: a pasted image is not a prompt's words.
  const typed = items.filter((item) => item.kind === 'user' && (item.block === undefined || item.block.type === 'text'));
  const loopStart = openLoopStart(items);
  const latest = latestPrompt(items, loopStart);
  const always = new Set([...(originalAsk ? [originalAsk.id] : []), ...latest.map((item) => item.id)]);
  // A prompt longer than pinnedItemMaxTokens is a paste: summarised, its sentences of note pinned.
  const wholeable = typed.filter((item) => always.has(item.id) || item.tokens <= options.preserve.pinnedItemMaxTokens);
  const kept = promptsWithinBudget(wholeable, promptBudgetTokens(context.windowTokens, options.preserve.promptBudgetPercent), always);
  // The tagger's allowance goes to the newest prompts first.
  const tagging = tagBudget();
  const typedPins = new Map(
    typed.toReversed().map((item) => [item.id, options.preserve.extractPinned ? extractPins(item.text, tagging) : { constraints: [], openLoops: [] }]),
  );
  for (const item of items) {
    // A summary carries forward what the person asked before it; it is merged, never pinned whole,
    // and only its explicitly marked sentences count (the rest is the summariser's narration).
    if (item.kind === 'summary') {
      if (!options.preserve.extractPinned) continue;
      const pins = extractMarkedPins(pinnableSummaryText(item.text));
      if (pinCount(pins) > 0) extracted.push({ id: item.id, pins });
      continue;
    }
    if (item.kind !== 'user') continue;
    // A pasted image holds no words of theirs.
    const pins = typedPins.get(item.id) ?? { constraints: [], openLoops: [] };
    if (pinCount(pins) > 0) extracted.push({ id: item.id, pins });
    if (!kept.has(item.id)) continue;
    const rule = pins.constraints[0] ?? pins.openLoops[0];
    if (rule !== undefined) protect(item, { kind: 'pinned', reason: `pinned: ${clip(rule)}` });
    // The latest prompt is protected as such below.
    else if (!latest.includes(item)) protect(item, { kind: 'prompt', reason: 'your prompt (kept verbatim)' });
  }
  return { extracted, latest, loopStart };
}

/** The assistant's messages dense with epistemic markers (what it found out, ruled out), kept within their budget, densest first. */
function protectEpistemic(context: Context, options: EngineOptions, protect: Protect, protections: ReadonlyMap<number, Protection>): Map<number, MarkerHit[]> {
  const { items } = context;
  const markers = new Map<number, MarkerHit[]>();
  const threshold = markerThreshold(options.preserve.taskComplexity, options.preserve.epistemicThreshold);
  const dense: { item: ContextItem; phrases: string[] }[] = [];
  for (const item of items) {
    if (item.kind !== 'assistant' && item.kind !== 'thinking') continue;
    const hits = findEpistemicMarkers(item.text);
    if (hits.length === 0) continue;
    markers.set(item.id, hits);
    const phrases = distinctPhrases(hits);
    if (phrases.length >= threshold) dense.push({ item, phrases });
  }
  // Densest first within a budget: past it, messages are compacted and their markers named instead.
  let budget = (context.windowTokens * options.preserve.epistemicBudgetPercent) / 100;
  dense.sort((a, b) => b.phrases.length - a.phrases.length || a.item.id - b.item.id);
  for (const { item, phrases } of dense) {
    if (protections.has(item.id) || item.tokens > budget) continue;
    budget -= item.tokens;
    protect(item, { kind: 'epistemic', reason: describeMarkers(phrases) });
  }
  return markers;
}

/** The conversation's items matching the person's focus text. */
function protectFocus(items: readonly ContextItem[], options: EngineOptions, protect: Protect): Set<number> {
  const focusMatches = new Set<number>();
  const matches = options.focus ? focusMatcher(options.focus) : undefined;
  if (matches) {
    for (const item of items) {
      if (!CONVERSATIONAL.has(item.kind) || !matches(item.text)) continue;
      focusMatches.add(item.id);
      protect(item, { kind: 'focus', reason: `focus match: ${clip(options.focus, 60)}` });
    }
  }
  return focusMatches;
}

/** A kept call needs its result and a kept result its call: the API rejects a split pair. */
function protectPairs(
  items: readonly ContextItem[],
  protections: ReadonlyMap<number, Protection>,
  protect: Protect,
  byUseId: ReturnType<typeof pairsByUseId>,
  dropped: ReadonlySet<number>,
): void {
  for (const [id, protection] of [...protections]) {
    const item = items[id];
    if (!item?.toolUseId || protection.kind === 'head' || dropped.has(id)) continue;
    for (const partner of byUseId.get(item.toolUseId) ?? []) {
      if (partner.id !== id) protect(partner, { kind: 'pair', reason: `pair of #${id} (${protection.reason})` });
    }
  }
}

export function analyzePolicy(context: Context, options: EngineOptions): PolicyAnalysis {
  const { items } = context;
  const protections = new Map<number, Protection>();
  const protect = (item: ContextItem, protection: Protection): void => {
    if (!protections.has(item.id)) protections.set(item.id, protection);
  };

  for (const item of items) if (item.kind === 'system' || item.kind === 'tools') protect(item, { kind: 'head', reason: 'system head (cached prefix)' });

  // The person's choices come before every rule of ours.
  const byUseId = pairsByUseId(items);
  const choices = userChoices(items, options, byUseId);
  for (const id of choices.keep) if (items[id]) protect(items[id], { kind: 'choice', reason: KEPT_BY_YOU });
  for (const id of choices.drop) if (items[id]) protect(items[id], { kind: 'choice', reason: DROPPED_BY_YOU });

  const originalAsk = items.find((item) => item.kind === 'user');
  if (originalAsk) protect(originalAsk, { kind: 'original-ask', reason: 'original ask' });

  const { extracted, latest, loopStart } = protectPrompts(context, options, protect);

  const recentStart = recentWindowStart(context, options);
  for (let index = recentStart; index < items.length; index++) {
    const item = items[index];
    if (item) protect(item, { kind: 'recent', reason: 'recent window' });
  }

  const resultIds = new Set(items.filter((item) => item.kind === 'tool_result').map((item) => item.toolUseId));
  for (const item of items) {
    if (item.kind === 'tool_use' && !resultIds.has(item.toolUseId)) protect(item, { kind: 'in-flight', reason: 'in-flight tool call (no result yet)' });
  }

  const pinned = buildPinnedSet(options.preserve.pinned, extracted);

  // What the agent is answering right now (unless already kept for another reason); the rest of the
  // current turn may be summarised once aged.
  for (const item of latest) protect(item, { kind: 'latest-prompt', reason: 'latest prompt (what the agent is answering)' });

  const markers = protectEpistemic(context, options, protect, protections);

  const focusMatches = protectFocus(items, options, protect);

  protectPairs(items, protections, protect, byUseId, choices.drop);

  return { protections, recentStart, openLoopStart: loopStart, originalAskId: originalAsk?.id, pinned, markers, focusMatches, dropped: choices.drop };
}
