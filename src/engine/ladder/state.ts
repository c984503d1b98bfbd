// Shared working state of the ladder. Each tier reads the policy, rewrites some planned items and
// reports what it did; `replace` keeps the running total exact so every tier can stop the moment
// the target is met (gentlest first, seed 003).
import type { Context, ContextItem } from '../model';
import type { EngineOptions } from '../options';
import type { MarkerHit } from '../policy/epistemic';
import type { PolicyAnalysis, Protection } from '../policy/preserve';
import { scaledCount } from '../tokens/scale';
import type { Tokenizer } from '../tokens/tokenizer';

export type TierName = 'supersede' | 'age-clear' | 'dedupe' | 'truncate' | 'summarize';

export type Fate = 'preserved' | 'compacted' | 'dropped';

export interface PlannedItem {
  item: ContextItem;
  fate: Fate;
  /** Human-readable, cites other items as `#id`. */
  reason: string;
  tier?: TierName;
  /** Text after compaction ('' when dropped). */
  text: string;
  tokensAfter: number;
  protection?: Protection;
  /** Epistemic marker offsets in the original text, for UI highlighting. */
  markers?: MarkerHit[];
}

export interface TierReport {
  tier: TierName;
  acted: number;
  tokensSaved: number;
  /** Why a tier did nothing although it ran (e.g. below `clearAtLeastTokens`). */
  note?: string;
}

export interface LadderState {
  context: Context;
  options: EngineOptions;
  policy: PolicyAnalysis;
  planned: PlannedItem[];
  tokenizer: Tokenizer;
  targetTokens: number;
  /** Manual compaction runs every enabled tier instead of stopping at the target. */
  runAllTiers: boolean;
  totalTokens: number;
}

export function targetMet(state: LadderState): boolean {
  return !state.runAllTiers && state.totalTokens <= state.targetTokens;
}

/** Tokens of text the engine writes, on the same scale as the context's own counts. */
export function countNew(state: LadderState, text: string): number {
  return scaledCount(state.tokenizer.count(text), state.context.tokenScale);
}

/** Untouched by policy and by earlier tiers: the only items a tier may rewrite. */
export function isOpen(planned: PlannedItem): boolean {
  return planned.protection === undefined && planned.tier === undefined;
}

export function replace(state: LadderState, planned: PlannedItem, change: { fate: Fate; reason: string; tier: TierName; text: string; tokensAfter: number }): number {
  const saved = planned.tokensAfter - change.tokensAfter;
  state.totalTokens -= saved;
  Object.assign(planned, change);
  return saved;
}

export function initialPlan(context: Context, policy: PolicyAnalysis): PlannedItem[] {
  return context.items.map((item) => {
    const protection = policy.protections.get(item.id);
    const markers = policy.markers.get(item.id);
    return {
      item,
      fate: 'preserved',
      reason: protection?.reason ?? 'kept: target reached before this item was needed',
      text: item.text,
      tokensAfter: item.tokens,
      ...(protection ? { protection } : {}),
      ...(markers ? { markers } : {}),
    };
  });
}
