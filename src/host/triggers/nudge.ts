// When Context Lens speaks up about the fill. Context Lens cannot shrink the agent's live context in
// place, so its trigger (S1), safety net (S2) and circuit breaker (S12) decide when to *offer* a
// compaction. Hysteresis applies to the offer too: one notice per climb past the trigger, and the
// next only after the context went back under the target (a compaction, a new session).
import type { TriggerDecision } from '../../engine';

export type NudgeLevel = 'trigger' | 'safety-net';

export interface Nudge {
  readonly level: NudgeLevel;
  readonly message: string;
}

export interface NudgeState {
  /** The highest level already offered in this climb; null once re-armed. */
  offered: NudgeLevel | null;
}

export interface FillFacts {
  readonly usedTokens: number;
  readonly windowTokens: number;
  /** The agent's own auto-compact point in tokens (0 = none). */
  readonly agentAutoCompactTokens: number;
  /** The agent, as the message names it (default: "the agent"). */
  readonly agentName?: string;
  readonly targetPercent: number;
  readonly safetyNetPercent: number;
}

const k = (tokens: number): string => `${Math.round(tokens / 1000)}k`;

/** The notice to show for this decision, if any; updates `state`. */
export function nudgeFor(decision: TriggerDecision, facts: FillFacts, state: NudgeState): Nudge | null {
  if (decision.fillPercent < facts.targetPercent) {
    state.offered = null;
    return null;
  }
  if (decision.action !== 'compact') return null;
  const level: NudgeLevel = decision.fillPercent >= facts.safetyNetPercent ? 'safety-net' : 'trigger';
  // Already offered at this level (or a higher one) in this climb.
  if (state.offered === level || state.offered === 'safety-net') return null;
  state.offered = level;
  const fill = `${decision.fillPercent.toFixed(0)} % full (${k(facts.usedTokens)}/${k(facts.windowTokens)})`;
  const agent =
    facts.agentAutoCompactTokens > 0 && facts.usedTokens < facts.agentAutoCompactTokens
      ? ` ${facts.agentName ?? 'The agent'} compacts by itself, without your focus, at ${k(facts.agentAutoCompactTokens)}.`
      : '';
  return level === 'safety-net'
    ? { level, message: `Context Lens: the context is ${fill}, past the safety net. Compact now, with a focus, before the agent has to do it blindly.${agent}` }
    : { level, message: `Context Lens: the context is ${fill}, past your trigger. Compact with a focus now?${agent}` };
}
