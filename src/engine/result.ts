// What a compaction reports (S18, S19, S20): a fate and a reason for every item, metrics, the
// compacted conversation, the summary, the verification and — when anything went wrong — the
// untouched original plus the error. Shared by `plan` (preview) and `compact`.
import type { ArchiveRef } from './archive';
import type { AnthropicConversation, Context, ContextItem } from './model';
import type { EscalationStep, PolicyFloor, HoldingItem } from './ladder/escalate';
import type { TargetMiss } from './ladder/missed';
import type { Fate, PlannedItem, TierName, TierReport } from './ladder/state';
import type { MarkerHit } from './policy/epistemic';
import type { ProtectionKind } from './policy/preserve';
import { redactSecrets } from './redact';
import type { Verification } from './verify';
import { thousands } from '../base/format';

export interface ItemFate {
  id: number;
  kind: ContextItem['kind'];
  role: ContextItem['role'];
  turn: number;
  fate: Fate;
  reason: string;
  /** The tier that decided the fate. */
  tier?: TierName;
  /** The tool-output tier (1–3) that stubbed, cleared or truncated the item first, even if tier 4 then dropped it. */
  prunedBy?: TierName;
  tokensBefore: number;
  tokensAfter: number;
  protection?: ProtectionKind;
  markers?: MarkerHit[];
  toolName?: string;
  resourceKey?: string;
  sourceRef?: string[];
}

export interface TierMetrics {
  items: number;
  tokensSaved: number;
  note?: string;
}

/**
 * The books balance: Σ perTier.tokensSaved − reinjectedTokens === savedTokens. Each tier is credited
 * with what it removed when it acted, so a stub that tier 4 later drops counts for tier 1 with
 * original − stub and for tier 4 with the stub; tier 4's saving is net of the summary it inserts
 * (the one really inserted, not the plan's preview). The pinned block re-injected after
 * verification is no tier's doing and is the one addition reported on its own.
 */
export interface CompactionMetrics {
  tokensBefore: number;
  tokensAfter: number;
  savedTokens: number;
  savingsPercent: number;
  targetTokens: number;
  targetMet: boolean;
  perTier: Record<TierName, TierMetrics>;
  /** Tokens of the pinned block re-injected after verification (0 when nothing was missing). */
  reinjectedTokens: number;
  /**
   * Tool results stubbed, cleared, deduplicated or truncated by tiers 1–3, including those tier 4
   * dropped afterwards (seed 001 `tool_results_pruned`): the items with a `prunedBy`.
   */
  toolResultsPruned: number;
  /** `tool:resource` of every stale resource stubbed by tier 1 (seed 002), whatever tier 4 did next. */
  staleResources: string[];
  previousSummaryReused: boolean;
  skippedLowSavings: boolean;
  failedOpen: boolean;
  durationMs: number;
  /** tokensBefore / tokensAfter (1 when nothing changed). */
  compressionRatio: number;
  /** Summarised tokens / summary tokens (seed 004's ratio); 0 without a summary. */
  summaryCompressionRatio: number;
  /**
   * Secrets masked in the text this compaction wrote (stubs, truncations, the summary, the pinned
   * block), for the "N secrets redacted" line. Items kept as they were are not rewritten.
   */
  redactions: number;
}

export interface OverflowWarning {
  hardLimitTokens: number;
  tokensAfter: number;
  message: string;
}

export interface SummaryInfo {
  text: string;
  tokens: number;
  summarizer: string;
  fellBack: boolean;
  error?: string;
  summarizedItems: number;
  summarizedTokens: number;
  /** What the model's summary left out and the engine added back from the span ("Constraints: 2"). */
  repaired?: string[];
}

export type CompactionStatus = 'compacted' | 'noop' | 'skipped-low-savings' | 'failed-open';

export interface CompactionResult {
  status: CompactionStatus;
  /** Human-readable one-liner for logs and the status bar. */
  message: string;
  items: ItemFate[];
  metrics: CompactionMetrics;
  tiers: TierReport[];
  /** Steps taken inside the protected windows because the gentle tiers missed the target, in order. */
  escalation: EscalationStep[];
  /** What no tier removes (system, tools, pinned, the latest prompt, the original ask); absent on failure. */
  floor?: PolicyFloor;
  /** When the target is missed (or nothing could be done): the heaviest message items still kept, and why. */
  heldBy?: HoldingItem[];
  /** When the result is above its target: by how much and why (also said in `message`). */
  targetMiss?: TargetMiss;
  /** Ids of the items kept verbatim because they match the focus text. */
  focusKept: number[];
  /** The compacted context (the original when nothing changed or on failure). */
  after: Context;
  conversation: AnthropicConversation;
  summary?: SummaryInfo;
  verification?: Verification;
  /** Unified diff before→after, secrets redacted; '' when nothing changed. */
  diff: string;
  overflow?: OverflowWarning;
  archive?: ArchiveRef;
  error?: string;
}

export function emptyTierMetrics(): Record<TierName, TierMetrics> {
  return {
    choice: { items: 0, tokensSaved: 0 },
    supersede: { items: 0, tokensSaved: 0 },
    'age-clear': { items: 0, tokensSaved: 0 },
    dedupe: { items: 0, tokensSaved: 0 },
    truncate: { items: 0, tokensSaved: 0 },
    summarize: { items: 0, tokensSaved: 0 },
  };
}

export function itemFates(planned: readonly PlannedItem[]): ItemFate[] {
  return planned.map(({ item, fate, reason, tier, prunedBy, tokensAfter, protection, markers }) => ({
    id: item.id,
    kind: item.kind,
    role: item.role,
    turn: item.turn,
    fate,
    reason,
    tokensBefore: item.tokens,
    tokensAfter,
    ...(tier ? { tier } : {}),
    ...(prunedBy ? { prunedBy } : {}),
    ...(protection ? { protection: protection.kind } : {}),
    ...(markers ? { markers } : {}),
    ...(item.toolName ? { toolName: item.toolName } : {}),
    // A command is a resource too, and `DB_PASSWORD=… ./deploy` would go out in every report.
    ...(item.resourceKey ? { resourceKey: redactSecrets(item.resourceKey) } : {}),
    ...(item.sourceRef ? { sourceRef: item.sourceRef } : {}),
  }));
}

export function savingsPercent(before: number, after: number): number {
  return before <= 0 ? 0 : ((before - after) / before) * 100;
}

export function overflowOf(tokensAfter: number, hardLimitTokens: number): OverflowWarning | undefined {
  if (tokensAfter <= hardLimitTokens) return undefined;
  return {
    hardLimitTokens,
    tokensAfter,
    message: `Still ${thousands(tokensAfter)} tokens after compaction, above the hard limit of ${thousands(hardLimitTokens)}: the next request may overflow the window.`,
  };
}
