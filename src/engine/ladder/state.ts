// Shared working state of the ladder. Each tier reads the policy, rewrites some planned items and
// reports what it did; `replace` keeps the running total exact so every tier can stop the moment
// the target is met (gentlest first, seed 003).
import type { Context, ContextItem } from '../model';
import type { EngineOptions } from '../options';
import type { MarkerHit } from '../policy/epistemic';
import type { PolicyAnalysis, Protection } from '../policy/preserve';
import { redactSecretsWithCounts } from '../redact';
import { scaledCount } from '../tokens/scale';
import type { Tokenizer } from '../tokens/tokenizer';

/** `choice` is the person's own drops (region map, `--drop`), applied before any tier of ours. */
export type TierName = 'choice' | 'supersede' | 'age-clear' | 'dedupe' | 'truncate' | 'summarize';

export type Fate = 'preserved' | 'compacted' | 'dropped';

export interface PlannedItem {
  item: ContextItem;
  fate: Fate;
  /** Human-readable, cites other items as `#id`. */
  reason: string;
  /** The tier that decided the final fate. */
  tier?: TierName;
  /**
   * The tool-output tier (1–3) that rewrote this item, kept when tier 4 later drops it: the metrics
   * credit stubs, clears and truncations to the tier that made them.
   */
  prunedBy?: TierName;
  /** Text after compaction ('' when dropped). */
  text: string;
  tokensAfter: number;
  protection?: Protection;
  /**
   * A stub or truncation an earlier compaction wrote. Tiers 1–3 leave it alone: stubbing a stub or
   * cutting a cut saves a token or two and swaps what it reported (the original size, how much was
   * elided) for figures about itself. Tier 4 may still summarise it away.
   */
  compactedEarlier?: boolean;
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
  /** A manual compaction without a target of the caller's runs every enabled tier instead of stopping at the target. */
  runAllTiers: boolean;
  totalTokens: number;
  /** Secrets masked in the text tiers 1–3 wrote (the summary counts its own). */
  redactions: number;
  /** Escalation (see escalate.ts): tier 3 also cuts oversized outputs inside the recent window. */
  cutRecentOutputs?: boolean;
  /** Escalation's last steps: the cap those recent outputs are cut to, below their category's. */
  recentCapTokens?: number;
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
  return planned.protection === undefined && planned.tier === undefined && !planned.compactedEarlier;
}

/**
 * Every tier's rewrite passes here, so nothing a tier writes (a stub naming a command, the head of
 * a truncated output) carries a secret on: the text is redacted, and recounted only when it changed.
 */
export function replace(
  state: LadderState,
  planned: PlannedItem,
  change: { fate: Fate; reason: string; tier: TierName; text: string; tokensAfter: number },
): number {
  const redacted = redactSecretsWithCounts(change.text);
  state.redactions += redacted.count;
  // Masking moves the size by what it changed, on the same footing as the tier's own figure: a fresh
  // count on the context's scale would weigh the text anew (a scale skewed by one outlier step made a
  // 3,570-token output cut in half weigh 99,039 on a published session).
  const tokensAfter = redacted.count > 0 ? Math.max(1, Math.round(change.tokensAfter * ratioOf(state, redacted.text, change.text))) : change.tokensAfter;
  const saved = planned.tokensAfter - tokensAfter;
  state.totalTokens -= saved;
  Object.assign(planned, change, { text: redacted.text, tokensAfter, prunedBy: change.tier });
  return saved;
}

/** How much `after` weighs relative to `before`, by our own count (1 when `before` counts nothing). */
function ratioOf(state: LadderState, after: string, before: string): number {
  const was = state.tokenizer.count(before);
  return was > 0 ? state.tokenizer.count(after) / was : 1;
}

/** Kept only for being recent: what escalation may cut when the target is missed (see escalate.ts). */
export function isRecentOnly(state: LadderState, planned: PlannedItem): boolean {
  const kind = planned.protection?.kind;
  const recent = kind === 'recent' || (kind === 'pair' && state.planned.indexOf(planned) >= state.policy.recentStart);
  return recent && planned.tier === undefined && !planned.compactedEarlier;
}

/** `compactedEarlier` recognises a tool result's text as an earlier run's stub or truncation. */
export function initialPlan(context: Context, policy: PolicyAnalysis, compactedEarlier: (text: string) => boolean): PlannedItem[] {
  return context.items.map((item) => {
    const protection = policy.protections.get(item.id);
    const markers = policy.markers.get(item.id);
    const earlier = item.kind === 'tool_result' && compactedEarlier(item.text);
    const unprotected = earlier ? 'kept: already compacted by an earlier run' : 'kept: target reached before this item was needed';
    // Sent once by the agent, never by a fork: gone from any compaction's result, and from its floor.
    if (item.reattached)
      return { item, fate: 'dropped', reason: 're-attached by the agent after its own compaction: a fork does not send it', text: '', tokensAfter: 0 };
    return {
      item,
      fate: 'preserved',
      reason: protection?.reason ?? unprotected,
      text: item.text,
      tokensAfter: item.tokens,
      ...(earlier ? { compactedEarlier: true } : {}),
      ...(protection ? { protection } : {}),
      ...(markers ? { markers } : {}),
    };
  });
}
