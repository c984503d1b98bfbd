// What a session cost, for `inspect`, `compact` and the panel alike: every call the session paid for
// (its subagents' too), what carrying each item of the live context has cost, grouped by file, and
// whether a compaction pays off. The prices are the caller's (bundled, or with the person's merged).
import {
  breakEven,
  type BreakEven,
  costByResource,
  type ResourceGroup,
  callRates,
  costWithRates,
  promptOf,
  type CallRates,
  itemCosts,
  type PriceIndex,
  sessionCost,
  type SessionCost,
  cacheHealth,
  type CacheHealth,
} from '../pricing';
import type { Context } from '../engine';
import { breakEvenSentence } from '../protocol/format';
import type { AgentAdapter } from './port';
import type { LiveContext, SessionCall } from './types';

export interface CostReport {
  prices: { source: string; taken: string };
  /** Every call of the session file and of its subagents' transcripts. */
  session: SessionCost;
  /** Each subagent: its calls, its fill (the prompt of its latest call), what they cost, and what its parent's prompt was when it started. */
  subagents: ({ id: string; title: string; parentTokens: number | null } & TranscriptCost)[];
  /** The calls on the live chain since the last compaction, each once (null: no price for its model). */
  calls: { at: string | null; model: string | null; usd: number | null; longContext?: true }[];
  /** What carrying the live context cost over those calls: the items' costs plus what fell on no item. */
  context: { promptUsd: number; unassignedUsd: number };
  /** US dollars per item of the engine's context, in its order. */
  items: number[];
  byFile: ResourceGroup[];
  /** Which calls of the session's own file missed the prompt cache, why, and what that cost. */
  cache: CacheHealth;
}

/** `calls`: the adapter, or a session handle's reader of the calls (read once per change). */
export async function costReport(index: PriceIndex, calls: Pick<AgentAdapter, 'readSessionCalls'>, live: LiveContext, context: Context): Promise<CostReport> {
  const read = await calls.readSessionCalls(live.session);
  // A session file that went away between the two reads costs what its live chain shows.
  const own = read.ok ? read.value.calls : live.calls;
  const subagents = read.ok ? read.value.subagents : [];
  const session = sessionCost(index, [...own, ...subagents.flatMap((agent) => agent.calls)]).total;
  const sequence = read.ok ? (read.value.sequence ?? own) : live.calls;
  const rates = live.calls.map((call) => callRates(index, call));
  const carried = itemCosts(context.items, live.calls, rates);
  return {
    prices: { source: index.table.source, taken: index.table.taken },
    session,
    subagents: subagents.map((agent) => {
      const cost = transcriptCost(index, agent.calls, agent.sequence);
      return { id: agent.session.id, title: agent.session.title, ...cost, parentTokens: parentPromptAt(sequence, cost.firstAt ?? null) };
    }),
    calls: live.calls.map((call, k) => {
      const callRate = rates[k];
      const cost = callRate ? costWithRates(call.usage, callRate) : null;
      return { at: call.at, model: call.model, usd: cost?.usd ?? null, ...(cost?.longContext ? { longContext: true as const } : {}) };
    }),
    context: { promptUsd: carried.promptUsd, unassignedUsd: carried.unassigned },
    items: carried.usd,
    byFile: costByResource(context.items, carried.usd).filter((group) => group.file),
    // A fork of ours starts after our compaction: its first call rewrites what the source had cached.
    cache: cacheHealth(
      index,
      sequence,
      live.compactions.map((event) => ({ at: event.timestamp })),
      { startsAfterCompaction: live.session.forkOf !== undefined },
    ),
  };
}

export interface TranscriptCost {
  calls: number;
  /** Its fill: the prompt of its latest call. */
  tokens: number;
  usd: number;
  /** Models of its calls that have no price. */
  unpriced: string[];
  /** What it started with: the prompt of its first call (a subagent forked from its parent's context starts big), and when. */
  firstPromptTokens?: number;
  firstAt?: string | null;
  /** The parent's context when it started (its latest prompt before), where the parent was read. */
  parentTokens?: number | null;
}

/**
 * One transcript's own calls (a subagent's, say): how many, its fill, what they cost, its first
 * prompt. `sequence`: its calls one by one in order, when `calls` are summed (SessionCalls).
 */
export function transcriptCost(index: PriceIndex, calls: readonly SessionCall[], sequence?: readonly SessionCall[]): TranscriptCost {
  const { total } = sessionCost(index, calls);
  const first = (sequence ?? calls).find((call) => call.count === undefined);
  return {
    calls: total.calls,
    tokens: latestPromptTokens(calls),
    usd: total.usd,
    unpriced: total.unpriced.map((row) => row.model),
    firstPromptTokens: first === undefined ? 0 : promptOf(first.usage),
    firstAt: first?.at ?? null,
  };
}

/** The parent's context when a subagent started: the prompt of its latest call at or before `at` (null: none known). */
export function parentPromptAt(parent: readonly SessionCall[], at: string | null): number | null {
  const start = at === null ? NaN : Date.parse(at);
  if (!Number.isFinite(start)) return null;
  let tokens: number | null = null;
  for (const call of parent) {
    const when = call.count === undefined && call.at !== null ? Date.parse(call.at) : NaN;
    if (Number.isFinite(when) && when <= start) tokens = promptOf(call.usage);
  }
  return tokens;
}

/**
 * A subagent that started with at least this share of its parent's context inherited it: a fresh one
 * starts with its own system prompt and tools (11k against a parent's 20k in a published session),
 * a forked one with all of its parent's history and more (139.5k against 141.8k).
 */
const MOST = 0.8;

/** Whether a subagent started with most of its parent's context (Claude Code's forked subagents inherit all of it). */
export const inheritedMost = (firstPromptTokens: number, parentTokens: number | null): boolean =>
  parentTokens !== null && parentTokens > 0 && firstPromptTokens >= parentTokens * MOST;

/** "started with 84k: most of its parent's 96k context" when it inherited most of it, else "started with 12k". */
export function startedWithText(firstPromptTokens: number, parentTokens: number | null, tokens: (value: number) => string): string {
  if (parentTokens !== null && inheritedMost(firstPromptTokens, parentTokens))
    return `started with ${tokens(firstPromptTokens)}: most of its parent's ${tokens(parentTokens)} context`;
  return `started with ${tokens(firstPromptTokens)}`;
}

/**
 * A transcript's fill: the prompt of its latest call. Calls summed by model and day have no time of
 * their own; the newest responses are always kept one by one (sessionCalls.ts), so it is among those.
 */
export function latestPromptTokens(calls: readonly SessionCall[]): number {
  let latest: SessionCall | undefined;
  for (const call of calls) if (call.count === undefined && call.at !== null && (latest?.at == null || call.at >= latest.at)) latest = call;
  return latest === undefined ? 0 : promptOf(latest.usage);
}

/** The rates the next call would pay: the latest priced call's (its model, and the long-context tier it was in). */
export function nextCallRates(index: PriceIndex, live: LiveContext): { model: string; rates: CallRates } | null {
  for (let k = live.calls.length - 1; k >= 0; k--) {
    const call = live.calls[k];
    const rates = call === undefined ? null : callRates(index, call);
    if (call !== undefined && rates !== null) return { model: call.model ?? '', rates };
  }
  return null;
}

export type CompactCost = BreakEven & { model: string; sentence: string };

/** Does this compaction pay? null when no call of the session has a price. */
export function compactCost(index: PriceIndex, live: LiveContext, beforeTokens: number, afterTokens: number): CompactCost | null {
  const next = nextCallRates(index, live);
  return next === null ? null : compactCostAt(next, beforeTokens, afterTokens);
}

/** Does this compaction pay, at the rates the next call pays (`next`: its model and rates)? */
export function compactCostAt(next: { model: string; rates: CallRates }, beforeTokens: number, afterTokens: number): CompactCost {
  const figures = breakEven(beforeTokens, afterTokens, next.rates);
  return { ...figures, model: next.model, sentence: breakEvenSentence(figures) };
}
