// When the gentle tiers leave a run above its target (the caller's, or the setting), the ladder
// escalates inside what it protected, in a stated order, each step a full re-plan:
//   1. oversized tool outputs in the recent window are cut to head+tail (their category's cap);
//   2. the recent window shrinks (5 % of the window / 2 exchanges, then 2 % / 1, then 1 exchange);
//   3. the outputs left in that window are cut to 500 tokens, then 100, head and tail: still above
//      the floor, the target is met with what is left rather than missed by an output kept whole.
// Each step is reported. What no step can remove — system prompt, tool definitions, pinned and kept
// items, the latest prompt — is the policy floor, reported with the result so the person sees why
// a target is out of reach.
import type { EngineOptions } from '../options';
import { latestPrompt } from '../policy/preserve';
import type { LadderState } from './state';

export interface Escalation {
  /** Truncate oversized outputs inside the recent window too. */
  cutRecentOutputs?: boolean;
  /** …to this cap instead of their category's (the last steps). */
  recentCapTokens?: number;
}

export type EscalationStepName = 'cut-recent-outputs' | 'smaller-recent-window' | 'smaller-recent-cap';

export interface EscalationStep {
  step: EscalationStepName;
  /** In words, for the CLI and the preview ("recent window 5 % / 2 exchanges"). */
  detail: string;
  tokensAfter: number;
  targetMet: boolean;
}

/** The smaller recent windows tried in turn (percent of the window, exchanges). */
const SMALLER_WINDOWS: readonly { percent: number; turns: number }[] = [
  { percent: 5, turns: 2 },
  { percent: 2, turns: 1 },
  { percent: 0, turns: 1 },
];

/** The caps recent outputs are cut to when the smallest window still misses the target. */
const SMALLER_CAPS: readonly number[] = [500, 100];

export interface EscalatedRun<R> {
  run: R;
  steps: EscalationStep[];
}

/**
 * Runs `attempt` with the options as given, then escalates step by step while the target is missed.
 * `attempt` is one full plan (policy and every tier) under the options and escalation it is given.
 */
export function escalate<R extends { state: LadderState }>(
  options: EngineOptions,
  attempt: (options: EngineOptions, escalation: Escalation) => R,
): EscalatedRun<R> {
  let run = attempt(options, {});
  const steps: EscalationStep[] = [];
  const missed = (candidate: R): boolean => candidate.state.totalTokens > candidate.state.targetTokens;
  if (!missed(run)) return { run, steps };

  const record = (step: EscalationStepName, detail: string, next: R): void => {
    // Each step reaches further than the last, so it should weigh no more; should a rewrite ever
    // weigh more than what it replaced, the step is not taken: escalation never grows the result.
    // One that gains nothing (no window smaller than what the last step kept) is not taken either:
    // the last step taken reports what was written (re-injected pins included), which an earlier
    // step of the same weight, counted without them, would seem to undercut.
    if (next.state.totalTokens >= run.state.totalTokens) return;
    steps.push({ step, detail, tokensAfter: next.state.totalTokens, targetMet: !missed(next) });
    run = next;
  };
  record('cut-recent-outputs', 'oversized tool outputs in the recent window cut to head+tail', attempt(options, { cutRecentOutputs: true }));
  const { preserve } = options;
  for (const window of SMALLER_WINDOWS) {
    if (!missed(run)) break;
    const turns = Math.min(preserve.recentTurns, window.turns);
    const percent = Math.min(preserve.recentPercent, window.percent);
    if (turns === preserve.recentTurns && percent === preserve.recentPercent) continue;
    const smaller = { ...options, preserve: { ...preserve, recentTurns: turns, recentPercent: percent } };
    record(
      'smaller-recent-window',
      `recent window ${percent} % of the window / ${turns} exchange${turns === 1 ? '' : 's'}`,
      attempt(smaller, { cutRecentOutputs: true }),
    );
  }
  const smallest = { ...options, preserve: { ...preserve, recentTurns: Math.min(preserve.recentTurns, 1), recentPercent: 0 } };
  for (const cap of SMALLER_CAPS) {
    if (!missed(run)) break;
    const next = attempt(smallest, { cutRecentOutputs: true, recentCapTokens: cap });
    // A step that gains nothing (no output that large is left) is not one to report.
    if (next.state.totalTokens >= run.state.totalTokens) continue;
    record('smaller-recent-cap', `tool outputs in the recent window cut to ${cap} tokens head+tail`, next);
  }
  return { run, steps };
}

export interface PolicyFloor {
  /** Tokens no tier or escalation step removes. */
  tokens: number;
  system: number;
  tools: number;
  /** Pinned constraints' messages and what the person chose to keep. */
  pinned: number;
  latestPrompt: number;
  /** The first user message, kept as the original ask. */
  originalAsk: number;
}

/** Items kept verbatim because they match the focus text (the preview lists them). */
export function focusKept(state: LadderState): number[] {
  return state.planned.filter((planned) => planned.protection?.kind === 'focus' && planned.fate === 'preserved').map((planned) => planned.item.id);
}

/** What the policy keeps whatever the target: the floor under every compaction of this context. */
export function policyFloor(state: LadderState): PolicyFloor {
  const floor: PolicyFloor = { tokens: 0, system: 0, tools: 0, pinned: 0, latestPrompt: 0, originalAsk: 0 };
  // By position, not by the protection it got: the latest prompt may be kept as recent or pinned too.
  const latest = new Set(latestPrompt(state.context.items, state.policy.openLoopStart).map((item) => item.id));
  for (const planned of state.planned) {
    if (planned.fate === 'dropped') continue;
    const kind = planned.protection?.kind;
    const tokens = planned.item.tokens;
    if (planned.item.kind === 'system') floor.system += tokens;
    else if (planned.item.kind === 'tools') floor.tools += tokens;
    else if (latest.has(planned.item.id)) floor.latestPrompt += tokens;
    else if (kind === 'pinned' || kind === 'prompt' || kind === 'choice') floor.pinned += tokens;
    else if (kind === 'original-ask') floor.originalAsk += tokens;
    else continue;
    floor.tokens += tokens;
  }
  return floor;
}

/** A message item the plan keeps that weighs most: what holds a missed target up, beside the floor. */
export interface HoldingItem {
  id: number;
  kind: string;
  tokens: number;
  /** Why it stays: the recent window, a focus match, the person's keep, a pinned rule… (or none: a tier's own limit). */
  protection: string | null;
}

/** The heaviest message items still in the plan (the head is the floor's), heaviest first. */
export function holdingItems(state: LadderState, limit = 8): HoldingItem[] {
  return state.planned
    .filter((planned) => planned.item.messageIndex >= 0 && planned.fate !== 'dropped' && planned.tokensAfter > 0)
    .sort((a, b) => b.tokensAfter - a.tokensAfter || a.item.id - b.item.id)
    .slice(0, limit)
    .map((planned) => ({
      id: planned.item.id,
      kind: planned.item.toolName ? `${planned.item.kind} ${planned.item.toolName}` : planned.item.kind,
      tokens: planned.tokensAfter,
      protection: state.policy.protections.get(planned.item.id)?.reason ?? null,
    }));
}
