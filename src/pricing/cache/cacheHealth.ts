// Cache health: which calls of a session missed the provider's prompt cache, why (misses.ts), and
// what each miss cost beyond a hit: those tokens at the write (or input) rate less the read rate, so
// the misses' dollars are exactly what the session paid beyond the same calls each hitting the cache.
import { callRates, costWithRates, type CallUsage } from '../callCost';
import type { PriceIndex } from '../prices';
import { findMisses, type CacheBoundary, type CacheCall, type CacheHealthOptions, type FoundMiss, type FoundMisses, type MissCause } from './misses';

export { FIVE_MINUTES, MISS_CAUSES, ONE_HOUR, findMisses, type CacheBoundary, type CacheCall, type CacheHealthOptions, type MissCause } from './misses';

export interface CacheMiss extends FoundMiss {
  /** What the miss cost beyond a hit (null: no price for its model). */
  usd: number | null;
}

export interface CacheHealth extends Omit<FoundMisses, 'misses'> {
  misses: CacheMiss[];
  /** The misses' cost beyond hits, priced ones. */
  usd: number;
  /** Misses per cause. */
  byCause: Record<MissCause, number>;
}

/** The calls' cache health, priced with `index`. */
export function cacheHealth(
  index: PriceIndex,
  calls: readonly CacheCall[],
  boundaries: readonly CacheBoundary[] = [],
  options: CacheHealthOptions = {},
): CacheHealth {
  const found = findMisses(calls, boundaries, options);
  const byCause: Record<MissCause, number> = { idle: 0, model: 0, compaction: 0, prefix: 0, unknown: 0 };
  const misses = found.misses.map((miss): CacheMiss => {
    byCause[miss.cause]++;
    return { ...miss, usd: missUsd(index, calls[miss.call] as CacheCall, miss.rewrittenTokens) };
  });
  return { ...found, misses, usd: misses.reduce((sum, miss) => sum + (miss.usd ?? 0), 0), byCause };
}

/** The call as a hit: `rewritten` tokens read instead of written (1-hour writes first, then 5-minute, then input). */
export function asHit(usage: CallUsage, rewritten: number): CallUsage {
  const hour = Math.min(usage.cacheWrite1hTokens ?? 0, usage.cacheCreationInputTokens);
  const fromHour = Math.min(hour, rewritten);
  const fromWrite = Math.min(usage.cacheCreationInputTokens, rewritten);
  const fromInput = rewritten - fromWrite;
  const hit: CallUsage = {
    ...usage,
    cacheCreationInputTokens: usage.cacheCreationInputTokens - fromWrite,
    inputTokens: usage.inputTokens - fromInput,
    cacheReadInputTokens: usage.cacheReadInputTokens + rewritten,
  };
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

const CAUSE_PLURAL: Record<MissCause, string> = {
  idle: 'idle gaps',
  model: 'model changes',
  compaction: 'compactions',
  prefix: 'system prompt or tools changes',
  unknown: 'of unknown cause',
};
const CAUSE_ONE: Record<MissCause, string> = {
  idle: 'an idle gap',
  model: 'a model change',
  compaction: 'a compaction',
  prefix: 'a system prompt or tools change',
  unknown: 'cause unknown',
};

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
