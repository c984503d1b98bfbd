// Which calls of a session missed the provider's prompt cache, and why, from their usage alone: no
// prices, so the status line's small bundle can use it too (cacheHealth.ts prices the misses). Usage
// is in the Anthropic sense: input = uncached input, cache writes and reads apart (adapters turn
// OpenAI's and Gemini's "cached tokens inside the input" into that).
//
// A call misses when it read from the cache less than half of what the previous call sent and paid
// again for the rest: written to the cache (Anthropic), or as uncached input (OpenAI and Gemini, whose
// caches are written implicitly, at the input price). A hit would have read what both prompts share.
import type { CallUsage } from '../callCost';

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

export interface FoundMiss {
  /** The call's timestamp (null: unknown), and its index among the calls. */
  at: string | null;
  call: number;
  cause: MissCause;
  /** What a hit would have read and this call paid for again. */
  rewrittenTokens: number;
  /** Milliseconds since the previous call (null: a time is missing). */
  gapMs: number | null;
  /** The cache lifetime the previous call's cache was written with. */
  lifetimeMs: number;
  model: string | null;
}

export interface FoundMisses {
  calls: number;
  /** Of every prompt token sent, the share read from the cache (0–1; 0 without calls). */
  hitRatio: number;
  readTokens: number;
  writtenTokens: number;
  misses: FoundMiss[];
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

const promptOf = (usage: CallUsage): number => usage.inputTokens + usage.cacheCreationInputTokens + usage.cacheReadInputTokens;

const timeOf = (at: string | null): number | null => {
  const ms = at === null ? NaN : Date.parse(at);
  return Number.isFinite(ms) ? ms : null;
};

export function findMisses(calls: readonly CacheCall[], boundaries: readonly CacheBoundary[] = [], options: CacheHealthOptions = {}): FoundMisses {
  const misses: FoundMiss[] = [];
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
      misses.push({
        at: call.at,
        call: k,
        cause: causeOf(call, previous, gapMs, lifetimeMs, boundaryTimes, before, at),
        rewrittenTokens: miss,
        gapMs,
        lifetimeMs,
        model: call.model,
      });
    }
    // The cache this call leaves lives as long as it was written for: 1 h once a call writes 1-hour entries.
    if (call.usage.cacheCreationInputTokens > 0) lifetimeMs = (call.usage.cacheWrite1hTokens ?? 0) > 0 ? ONE_HOUR : FIVE_MINUTES;
  }
  return { calls: calls.length, hitRatio: sent === 0 ? 0 : readTokens / sent, readTokens, writtenTokens, misses, cachingOff };
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
function causeOf(
  call: CacheCall,
  previous: CacheCall | null,
  gapMs: number | null,
  lifetimeMs: number,
  boundaries: readonly number[],
  before: number | null,
  at: number | null,
): MissCause {
  if (previous === null) return 'compaction';
  if (at !== null && before !== null && boundaries.some((ms) => ms > before && ms <= at)) return 'compaction';
  if (call.model !== null && previous.model !== null && call.model !== previous.model) return 'model';
  if (call.prefix != null && previous.prefix != null && call.prefix !== previous.prefix) return 'prefix';
  if (gapMs !== null && gapMs > lifetimeMs) return 'idle';
  return 'unknown';
}
