// Cache health: which calls of a session missed the provider's prompt cache, why, and what each miss
// cost beyond a hit. Agent-neutral: it takes the calls in the order they were made, their usage in
// the Anthropic sense (input = uncached input; cache writes and reads apart; adapters turn OpenAI's
// and Gemini's "cached tokens inside the input" into that), and the compactions between them.
//
// A call misses when it read from the cache less than half of what the previous call sent and paid
// again for the rest: written to the cache (Anthropic), or as uncached input (OpenAI and Gemini, whose
// caches are written implicitly, at the input price). A hit would have read what the previous call
// sent; the miss's cost is those tokens at the write (or input) rate less the read rate, so the misses'
// dollars are exactly what the session paid beyond the same calls each hitting the cache.
import { callRates, costWithRates, promptOf, type CallUsage } from '../cost/callCost';
import type { PriceIndex } from '../cost/prices';

export type MissCause = 'idle' | 'model' | 'compaction' | 'prefix' | 'unknown';
export const MISS_CAUSES: readonly MissCause[] = ['idle', 'model', 'compaction', 'prefix', 'unknown'];

/** One call, in the order the session made it. */
export interface CacheCall {
  usage: CallUsage;
  model: string | null;
  at: string | null;
  /** A fingerprint of the system prompt and tools it sent, where the request was recorded. */
  prefix?: string | null;
}

/** A compaction (the agent's own, or the one that wrote this fork) and when it happened. */
export interface CacheBoundary {
  at: string | null;
}

export interface CacheMiss {
  /** The call's timestamp (null: unknown), and its index among the calls. */
  at: string | null;
  call: number;
  cause: MissCause;
  /** What a hit would have read and this call paid for again. */
  rewrittenTokens: number;
  /** What the miss cost beyond a hit (null: no price for its model). */
  usd: number | null;
  /** Milliseconds since the previous call (null: a time is missing). */
  gapMs: number | null;
  /** The cache lifetime the previous call's cache was written with. */
  lifetimeMs: number;
  model: string | null;
}

export interface CacheHealth {
  calls: number;
  /** Of every prompt token sent, the share read from the cache (0–1; 0 without calls). */
  hitRatio: number;
  readTokens: number;
  writtenTokens: number;
  misses: CacheMiss[];
  /** The misses' cost beyond hits, priced ones. */
  usd: number;
  /** Misses per cause. */
  byCause: Record<MissCause, number>;
  /** No call read from the cache: caching was off (or the provider has none), so nothing expired. */
  cachingOff: boolean;
}

export const FIVE_MINUTES = 5 * 60_000;
export const ONE_HOUR = 60 * 60_000;
/** Providers cache no prompt below this (Anthropic's and OpenAI's smallest cacheable prefix). */
const MIN_CACHEABLE = 1024;

export interface CacheHealthOptions {
  /** The first call follows a compaction with no call of this session before it (a fork of ours). */
  startsAfterCompaction?: boolean;
}

const timeOf = (at: string | null): number | null => {
  const ms = at === null ? NaN : Date.parse(at);
  return Number.isFinite(ms) ? ms : null;
};

/** The calls' cache health, priced with `index`. */
export function cacheHealth(index: PriceIndex, calls: readonly CacheCall[], boundaries: readonly CacheBoundary[] = [], options: CacheHealthOptions = {}): CacheHealth {
  const byCause: Record<MissCause, number> = { idle: 0, model: 0, compaction: 0, prefix: 0, unknown: 0 };
  const misses: CacheMiss[] = [];
  let readTokens = 0;
  let writtenTokens = 0;
  let sent = 0;
  for (const call of calls) {
    readTokens += call.usage.cacheReadInputTokens;
    writtenTokens += call.usage.cacheCreationInputTokens;
    sent += promptOf(call.usage);
  }
  const cachingOff = readTokens === 0;
  const boundaryTimes = boundaries.map((boundary) => timeOf(boundary.at)).filter((ms): ms is number => ms !== null);
  let lifetimeMs = FIVE_MINUTES;
  for (let k = 0; k < calls.length && !cachingOff; k++) {
    const call = calls[k] as CacheCall;
    const previous = k > 0 ? (calls[k - 1] as CacheCall) : null;
    const miss = previous === null ? (options.startsAfterCompaction ? missAt(call, promptOf(call.usage)) : null) : missAt(call, promptOf(previous.usage));
    if (miss !== null) {
      const at = timeOf(call.at);
      const before = previous === null ? null : timeOf(previous.at);
      const gapMs = at === null || before === null ? null : at - before;
      const cause = causeOf(call, previous, gapMs, lifetimeMs, boundaryTimes, before, at);
      byCause[cause]++;
      misses.push({ at: call.at, call: k, cause, rewrittenTokens: miss, usd: missUsd(index, call, miss), gapMs, lifetimeMs, model: call.model });
    }
    // The cache this call leaves lives as long as it was written for: 1 h once a call writes 1-hour entries.
    if (call.usage.cacheCreationInputTokens > 0) lifetimeMs = (call.usage.cacheWrite1hTokens ?? 0) > 0 ? ONE_HOUR : FIVE_MINUTES;
  }
  return { calls: calls.length, hitRatio: sent === 0 ? 0 : readTokens / sent, readTokens, writtenTokens, misses, usd: misses.reduce((sum, miss) => sum + (miss.usd ?? 0), 0), byCause, cachingOff };
}

/** Tokens `call` paid for again that a hit on `previousPrompt` would have read; null when it did not miss. */
function missAt(call: CacheCall, previousPrompt: number): number | null {
  if (previousPrompt < MIN_CACHEABLE) return null;
  const { usage } = call;
  if (usage.cacheReadInputTokens * 2 >= previousPrompt) return null;
  // A hit reads at most what both prompts share, and only out of what this call paid for in full.
  const rewritten = Math.min(Math.min(previousPrompt, promptOf(usage)) - usage.cacheReadInputTokens, usage.cacheCreationInputTokens + usage.inputTokens);
  return rewritten > 0 ? rewritten : null;
}

/** The strongest cause the records show: a new history or model forfeits the cache whether or not it expired. */
function causeOf(call: CacheCall, previous: CacheCall | null, gapMs: number | null, lifetimeMs: number, boundaries: readonly number[], before: number | null, at: number | null): MissCause {
  if (previous === null) return 'compaction';
  if (at !== null && before !== null && boundaries.some((ms) => ms > before && ms <= at)) return 'compaction';
  if (call.model !== null && previous.model !== null && call.model !== previous.model) return 'model';
  if (call.prefix != null && previous.prefix != null && call.prefix !== previous.prefix) return 'prefix';
  if (gapMs !== null && gapMs > lifetimeMs) return 'idle';
  return 'unknown';
}

/** The call as a hit: `rewritten` tokens read instead of written (1-hour writes first, then 5-minute, then input). */
export function asHit(usage: CallUsage, rewritten: number): CallUsage {
  const hour = Math.min(usage.cacheWrite1hTokens ?? 0, usage.cacheCreationInputTokens);
  const fromHour = Math.min(hour, rewritten);
  const fromWrite = Math.min(usage.cacheCreationInputTokens, rewritten);
  const fromInput = rewritten - fromWrite;
  const hit: CallUsage = { ...usage, cacheCreationInputTokens: usage.cacheCreationInputTokens - fromWrite, inputTokens: usage.inputTokens - fromInput, cacheReadInputTokens: usage.cacheReadInputTokens + rewritten };
  if (usage.cacheWrite1hTokens !== undefined) hit.cacheWrite1hTokens = hour - fromHour;
  return hit;
}

function missUsd(index: PriceIndex, call: CacheCall, rewritten: number): number | null {
  // The same prompt size, so the same rates (long-context tier included) for the call and its hit.
  const rates = callRates(index, call);
  if (rates === null) return null;
  return costWithRates(call.usage, rates).usd - costWithRates(asHit(call.usage, rewritten), rates).usd;
}

/** "cache 91 % · 4 misses cost $1.62, 3 of them idle gaps": `usd` formats dollars. */
export function cacheSentence(health: CacheHealth, usd: (value: number) => string): string {
  if (health.calls === 0) return 'cache: no calls yet';
  if (health.cachingOff) return 'cache: no call read from the cache (caching off)';
  const head = `cache ${Math.round(health.hitRatio * 100)} %`;
  const count = health.misses.length;
  if (count === 0) return `${head} · no misses`;
  const priced = health.misses.some((miss) => miss.usd !== null);
  const cost = priced ? ` cost ${usd(health.usd)}` : '';
  const [top, n] = (Object.entries(health.byCause) as [MissCause, number][]).reduce((best, entry) => (entry[1] > best[1] ? entry : best));
  const why = n === 0 ? '' : count === 1 ? `, ${CAUSE_ONE[top]}` : n === count ? `, all ${CAUSE_PLURAL[top]}` : `, ${n} of them ${CAUSE_PLURAL[top]}`;
  return `${head} · ${count} ${count === 1 ? 'miss' : 'misses'}${cost}${why}`;
}

const CAUSE_PLURAL: Record<MissCause, string> = { idle: 'idle gaps', model: 'model changes', compaction: 'compactions', prefix: 'system prompt or tools changes', unknown: 'of unknown cause' };
const CAUSE_ONE: Record<MissCause, string> = { idle: 'an idle gap', model: 'a model change', compaction: 'a compaction', prefix: 'a system prompt or tools change', unknown: 'cause unknown' };

/** "cache miss after 7 min idle: +$0.41" */
export function missSentence(miss: CacheMiss, usd: (value: number) => string): string {
  const cost = miss.usd === null ? ` (${miss.rewrittenTokens.toLocaleString('en-US')} tokens rewritten)` : `: +${usd(miss.usd)}`;
  switch (miss.cause) {
    case 'idle':
      return `cache miss after ${duration(miss.gapMs ?? 0)} idle${cost}`;
    case 'model':
      return `cache miss: the model changed${cost}`;
    case 'compaction':
      return `cache miss after a compaction${cost}`;
    case 'prefix':
      return `cache miss: the system prompt or tools changed${cost}`;
    default:
      return `cache miss, cause unknown${miss.gapMs === null ? '' : ` (${duration(miss.gapMs)} after the previous call)`}${cost}`;
  }
}

function duration(ms: number): string {
  const minutes = ms / 60_000;
  if (minutes < 1) return `${Math.max(0, Math.round(ms / 1000))} s`;
  if (minutes < 90) return `${Math.round(minutes)} min`;
  return `${Math.round(minutes / 6) / 10} h`;
}
