// Does compacting pay? A compaction changes the prompt's start, so the next call cannot read the kept
// context from the cache: it writes all of it again, at the cache-write price instead of the
// cache-read price. From then on every call reads fewer tokens: the removed ones, at the cache-read
// price. The one-off cost over the saving per call is the number of calls it takes to pay off.
import type { CallRates } from './callCost';

export interface BreakEven {
  /** Tokens of the context before and after the compaction. */
  beforeTokens: number;
  afterTokens: number;
  /** US dollars paid once: the kept context written instead of read on the next call. */
  oneOffUsd: number;
  /** US dollars saved on every call after: the removed tokens no longer read. */
  savingPerCallUsd: number;
  /** Calls after which the savings cover the one-off cost; null when it never pays off (nothing removed). */
  breakEvenCalls: number | null;
}

/** `rates`: what the session's latest call paid per token (its model, date and long-context tier). */
export function breakEven(beforeTokens: number, afterTokens: number, rates: Pick<CallRates, 'cacheWrite' | 'cacheRead'>): BreakEven {
  const kept = Math.max(0, afterTokens);
  const removed = Math.max(0, beforeTokens - kept);
  const oneOffUsd = kept * Math.max(0, rates.cacheWrite - rates.cacheRead);
  const savingPerCallUsd = removed * rates.cacheRead;
  const breakEvenCalls = savingPerCallUsd > 0 ? Math.max(1, Math.ceil(oneOffUsd / savingPerCallUsd - 1e-9)) : null;
  return { beforeTokens, afterTokens: kept, oneOffUsd, savingPerCallUsd, breakEvenCalls };
}
