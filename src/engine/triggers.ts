// When to compact (S1, S2, S3, S12, S19, S24). Decisions are pure functions of the fill and a small
// state: a hysteresis band (compact at 85 %, down to 60 %) so every turn does not nudge over the
// line, a safety net for when the agent itself is the primary trigger, and a circuit breaker that
// stops paying for compactions that no longer free anything until the context has grown again.
import type { CompactionStatus } from './result';
import type { CompactionTrigger } from './options';

export interface TriggerOptions {
  thresholdPercent: number;
  targetPercent: number;
  safetyNetPercent: number;
  /** `agent`: the agent decides (S4) and only the safety net fires here. */
  primary: 'threshold' | 'agent';
  minSavingsPercent: number;
  maxConsecutiveLowSavings: number;
  /** Under budget pressure the threshold drops 10 points (S24, seed 000). */
  budgetPressure: boolean;
}

export const DEFAULT_TRIGGER_OPTIONS: TriggerOptions = {
  thresholdPercent: 85, // seed 003 hysteresis band
  targetPercent: 60,
  safetyNetPercent: 95, // seed 000
  primary: 'threshold',
  minSavingsPercent: 10, // seed 001
  maxConsecutiveLowSavings: 2, // seed 001
  budgetPressure: false,
};

export interface Fill {
  usedTokens: number;
  windowTokens: number;
}

export interface TriggerDecision {
  action: 'none' | 'compact' | 'blocked';
  trigger?: CompactionTrigger;
  /** Where a compaction should stop, in tokens. */
  targetTokens: number;
  fillPercent: number;
  reason: string;
  focus?: string;
}

export interface TriggerState {
  lowSavingsStreak: number;
  breakerOpen: boolean;
  /** Context size right after the last recorded compaction. */
  lastTokensAfter: number | undefined;
}

export function effectiveThreshold(options: TriggerOptions): number {
  return options.budgetPressure ? Math.max(options.targetPercent + 1, options.thresholdPercent - 10) : options.thresholdPercent;
}

export class TriggerController {
  readonly options: TriggerOptions;
  private state: TriggerState = { lowSavingsStreak: 0, breakerOpen: false, lastTokensAfter: undefined };

  constructor(options: Partial<TriggerOptions> = {}) {
    this.options = { ...DEFAULT_TRIGGER_OPTIONS, ...options };
    if (this.options.targetPercent >= this.options.thresholdPercent) throw new RangeError('targetPercent must stay below thresholdPercent (hysteresis)');
  }

  get snapshot(): TriggerState {
    return { ...this.state };
  }

  decide(fill: Fill): TriggerDecision {
    this.resetIfGrown(fill);
    const fillPercent = fill.windowTokens > 0 ? (fill.usedTokens / fill.windowTokens) * 100 : 0;
    const targetTokens = Math.floor((fill.windowTokens * this.options.targetPercent) / 100);
    const base = { targetTokens, fillPercent };
    const threshold = effectiveThreshold(this.options);
    const safetyNet = Math.max(this.options.safetyNetPercent, threshold);
    const over = this.options.primary === 'threshold' ? fillPercent >= threshold : fillPercent >= safetyNet;
    if (!over)
      return {
        ...base,
        action: 'none',
        reason: `${fillPercent.toFixed(1)} % is below the ${(this.options.primary === 'threshold' ? threshold : safetyNet).toFixed(0)} % trigger`,
      };
    if (this.state.breakerOpen) {
      return {
        ...base,
        action: 'blocked',
        reason: `circuit breaker open after ${this.state.lowSavingsStreak} low-savings compactions; waiting for the context to grow`,
      };
    }
    const trigger: CompactionTrigger = fillPercent >= safetyNet && this.options.primary === 'agent' ? 'safety-net' : 'auto';
    return {
      ...base,
      action: 'compact',
      trigger,
      reason: `${fillPercent.toFixed(1)} % ≥ ${(trigger === 'safety-net' ? safetyNet : threshold).toFixed(0)} % ${trigger === 'safety-net' ? 'safety net' : 'threshold'}`,
    };
  }

  /** Manual compaction (S3) always runs: the person asked, the breaker only guards automatic runs. */
  manual(fill: Fill, focus = ''): TriggerDecision {
    const fillPercent = fill.windowTokens > 0 ? (fill.usedTokens / fill.windowTokens) * 100 : 0;
    return {
      action: 'compact',
      trigger: 'manual',
      targetTokens: Math.floor((fill.windowTokens * this.options.targetPercent) / 100),
      fillPercent,
      reason: focus ? `manual: ${focus}` : 'manual',
      ...(focus ? { focus } : {}),
    };
  }

  /** Feeds a compaction's outcome back: the streak counts results that saved less than the minimum. */
  record(result: { status: CompactionStatus; metrics: { savingsPercent: number; tokensAfter: number } }): void {
    if (result.status === 'failed-open') return;
    this.state.lastTokensAfter = result.metrics.tokensAfter;
    const low = result.status === 'skipped-low-savings' || result.status === 'noop' || result.metrics.savingsPercent < this.options.minSavingsPercent;
    this.state.lowSavingsStreak = low ? this.state.lowSavingsStreak + 1 : 0;
    this.state.breakerOpen = this.state.lowSavingsStreak >= this.options.maxConsecutiveLowSavings;
  }

  /**
   * New content re-arms the breaker (seed 001), but only once enough arrived that a compaction could
   * plausibly free the minimum saving again; one more small message must not restart the thrash.
   */
  private resetIfGrown(fill: Fill): void {
    if (this.state.lastTokensAfter === undefined) return;
    const growth = fill.usedTokens - this.state.lastTokensAfter;
    if (growth > 0 && growth >= (fill.windowTokens * this.options.minSavingsPercent) / 100) {
      this.state = { lowSavingsStreak: 0, breakerOpen: false, lastTokensAfter: undefined };
    }
  }
}
