// Planning: policy first, then the ladder gentlest-first until the target is met. Pure and
// synchronous — no LLM, no I/O — so the live preview can re-plan on every new turn. The summary in
// a plan is the heuristic one; `compact` swaps in the configured summarizer's text.
import { runAgeClear } from './ladder/ageClear';
import { escalate, focusKept, policyFloor, type Escalation, type EscalationStep, type PolicyFloor } from './ladder/escalate';
import { initialPlan, type LadderState, type PlannedItem, type TierReport } from './ladder/state';
import { countStub, PENDING_ARCHIVE_ID } from './ladder/stubText';
import { dropSpan, selectSummarySpan, summaryRequest, type SummarySpan } from './ladder/summarize';
import { runSupersede, staleResources, stubPattern } from './ladder/supersede';
import { ELISION_PATTERN, runDedupe, runTruncate, type ToolPruner } from './ladder/truncate';
import type { Context } from './model';
import { hardLimitOf, resolveOptions, targetTokensOf, type EngineOptions, type EngineOptionsInput } from './options';
import { analyzePolicy, DROPPED_BY_YOU } from './policy/preserve';
import { redactSecretsWithCounts } from './redact';
import { emptyTierMetrics, itemFates, overflowOf, savingsPercent, type CompactionMetrics, type ItemFate, type OverflowWarning } from './result';
import { heuristicSummary } from './summarizers/heuristic';
import { frameSummary, markdownSummaryBuilder, unframe, type SummaryBuilder } from './summarizers/template';
import type { SummaryRequest } from './summarizers/types';
import { estimateTokenizer } from './tokens/estimate';
import type { Tokenizer } from './tokens/tokenizer';

/** Replaceable parts (S25) that planning uses. */
export interface PlanDeps {
  tokenizer?: Tokenizer;
  toolPruner?: ToolPruner;
  summaryBuilder?: SummaryBuilder;
}

export interface PlannedSummary {
  span: SummarySpan;
  request: SummaryRequest;
  /** Framed heuristic summary (the preview text and the fallback). */
  text: string;
  tokens: number;
  /** Secrets masked in `text`. */
  redactions: number;
}

/** Internal result of planning, finished by `plan` (preview) or `compact` (apply). */
export interface LadderRun {
  state: LadderState;
  tiers: TierReport[];
  summary?: PlannedSummary;
  /** Steps taken inside the protected windows because the gentle tiers missed the target. */
  escalation: EscalationStep[];
}

export const SUMMARY_LABEL = 'the summary';

function runSummaryTier(state: LadderState, builder: SummaryBuilder): { report: TierReport; summary?: PlannedSummary } {
  const report: TierReport = { tier: 'summarize', acted: 0, tokensSaved: 0 };
  const span = selectSummarySpan(state);
  if (!span) {
    report.note = 'nothing summarisable outside the recent window and pinned items';
    return { report };
  }
  // Re-summarising nothing but our own summary only rewords it: a second run without growth settles.
  if (span.entries.every((planned) => planned.item.kind === 'summary' && unframe(planned.item.text) !== planned.item.text)) {
    report.note = 'skipped: nothing new to summarise since the last summary';
    return { report };
  }
  const request = summaryRequest(state, span);
  const body = redactSecretsWithCounts(heuristicSummary(request, builder));
  const frame = { summarizedItems: span.entries.length, summarizer: 'heuristic' };
  const text = frameSummary(body.text, state.options.summary.antiInjectionPrefix, frame);
  // Counted as `compact` will insert it, citing its archive: the plan's total is the result's.
  const tokens = countStub(state, frameSummary(body.text, state.options.summary.antiInjectionPrefix, { ...frame, archiveId: PENDING_ARCHIVE_ID }));
  if (tokens >= span.tokens) {
    report.note = `skipped: a summary (${tokens} tokens) would not be smaller than its span (${span.tokens} tokens)`;
    return { report };
  }
  dropSpan(state, span, SUMMARY_LABEL);
  state.totalTokens += tokens;
  report.acted = span.entries.length;
  report.tokensSaved = span.tokens - tokens;
  return { report, summary: { span, request, text, tokens, redactions: body.count } };
}

/**
 * The person's drops, before any tier: they hold whatever the target. Without an archive nothing is
 * dropped (S13) and the items stay, saying why.
 */
function runChoices(state: LadderState, canDrop: boolean): TierReport {
  const report: TierReport = { tier: 'choice', acted: 0, tokensSaved: 0 };
  for (const planned of state.planned) {
    if (!state.policy.dropped.has(planned.item.id)) continue;
    if (!canDrop) {
      planned.reason = `${DROPPED_BY_YOU} — not applied: dropping needs an archive to persist the item first`;
      continue;
    }
    state.totalTokens -= planned.tokensAfter;
    report.acted += 1;
    report.tokensSaved += planned.tokensAfter;
    Object.assign(planned, { fate: 'dropped', reason: DROPPED_BY_YOU, tier: 'choice', text: '', tokensAfter: 0 });
  }
  if (!canDrop) report.note = 'skipped: dropping needs an archive to persist the items first';
  return report;
}

/** What every tier reads and updates: the policy's verdicts and the plan so far. */
export function ladderState(context: Context, options: EngineOptions, tokenizer: Tokenizer, escalation: Escalation = {}): LadderState {
  const policy = analyzePolicy(context, options);
  const stub = stubPattern(options.supersede.stubTemplate);
  return {
    context,
    options,
    policy,
    planned: initialPlan(context, policy, (text) => stub.test(text) || ELISION_PATTERN.test(text) || text.startsWith(`${options.ageClear.placeholder} `)),
    tokenizer,
    targetTokens: targetTokensOf(options, context.windowTokens),
    runAllTiers: options.trigger === 'manual' && !options.explicitTarget,
    // What the agent re-attached once is dropped from the start (initialPlan).
    totalTokens: context.items.reduce((sum, item) => sum + (item.reattached ? 0 : item.tokens), 0),
    redactions: 0,
    ...(escalation.cutRecentOutputs ? { cutRecentOutputs: true } : {}),
    ...(escalation.recentCapTokens !== undefined ? { recentCapTokens: escalation.recentCapTokens } : {}),
  };
}

/**
 * Runs policy and ladder. `allowSummary: false` stops before tier 4 and leaves the person's drops
 * undone — `compact` passes it when no archive is available, because dropping what was not
 * persisted first is never allowed (S13).
 */
export function runLadder(context: Context, options: EngineOptions, deps: PlanDeps, allowSummary = true): LadderRun {
  const escalated = escalate(options, (attemptOptions, escalation) => runOnce(context, attemptOptions, deps, allowSummary, escalation));
  return { ...escalated.run, escalation: escalated.steps };
}

/** One pass of policy and tiers under fixed options (escalation repeats it with wider reach). */
function runOnce(context: Context, options: EngineOptions, deps: PlanDeps, allowSummary: boolean, escalation: Escalation): LadderRun {
  const state = ladderState(context, options, deps.tokenizer ?? estimateTokenizer, escalation);
  const tiers: TierReport[] = [];
  if (state.policy.dropped.size > 0) tiers.push(runChoices(state, allowSummary));
  const steps: [boolean, () => TierReport][] = [
    [options.supersede.enabled, () => runSupersede(state)],
    [options.ageClear.enabled, () => runAgeClear(state)],
    [options.truncate.enabled && options.truncate.dedupe, () => runDedupe(state)],
    [options.truncate.enabled, () => runTruncate(state, deps.toolPruner)],
  ];
  for (const [enabled, step] of steps) {
    if (!enabled || (state.totalTokens <= state.targetTokens && !state.runAllTiers)) continue;
    tiers.push(step());
  }
  let summary: PlannedSummary | undefined;
  if (options.summary.enabled && allowSummary && (state.runAllTiers || state.totalTokens > state.targetTokens)) {
    const outcome = runSummaryTier(state, deps.summaryBuilder ?? markdownSummaryBuilder);
    tiers.push(outcome.report);
    summary = outcome.summary;
  }
  return { state, tiers, escalation: [], ...(summary ? { summary } : {}) };
}

/**
 * Swaps in the summary `compact` really inserts (the configured summarizer's, framed with the
 * archive id) for the plan's heuristic preview, keeping the running total and tier 4's saving exact.
 */
export function settleSummary(run: LadderRun, text: string, tokens: number, redactions: number): void {
  const summary = run.summary;
  if (!summary) return;
  run.state.totalTokens += tokens - summary.tokens;
  const report = run.tiers.find((tier) => tier.tier === 'summarize');
  if (report) report.tokensSaved = summary.span.tokens - tokens;
  Object.assign(summary, { text, tokens, redactions });
}

export interface MetricsInput {
  tokensBefore: number;
  targetTokens: number;
  tiers: readonly TierReport[];
  planned: readonly PlannedItem[];
  summary?: PlannedSummary;
  /** Secrets masked in what the tiers and the summary wrote. */
  redactions?: number;
}

export function metricsInputOf(run: LadderRun): MetricsInput {
  const tokensBefore = run.state.context.items.reduce((sum, item) => sum + item.tokens, 0);
  const redactions = run.state.redactions + (run.summary?.redactions ?? 0);
  return {
    tokensBefore,
    targetTokens: run.state.targetTokens,
    tiers: run.tiers,
    planned: run.state.planned,
    ...(run.summary ? { summary: run.summary } : {}),
    redactions,
  };
}

export function metricsOf(input: MetricsInput, tokensAfter: number, extra: Partial<CompactionMetrics> = {}): CompactionMetrics {
  const { tokensBefore } = input;
  const perTier = emptyTierMetrics();
  for (const report of input.tiers)
    perTier[report.tier] = { items: report.acted, tokensSaved: report.tokensSaved, ...(report.note ? { note: report.note } : {}) };
  const summaryTokens = input.summary?.tokens ?? 0;
  return {
    tokensBefore,
    tokensAfter,
    savedTokens: tokensBefore - tokensAfter,
    savingsPercent: savingsPercent(tokensBefore, tokensAfter),
    targetTokens: input.targetTokens,
    targetMet: tokensAfter <= input.targetTokens,
    perTier,
    reinjectedTokens: 0,
    toolResultsPruned: input.planned.filter((planned) => planned.prunedBy !== undefined).length,
    staleResources: staleResources(input.planned),
    previousSummaryReused: (input.summary?.span.previousSummaryIds.length ?? 0) > 0,
    skippedLowSavings: false,
    failedOpen: false,
    durationMs: 0,
    compressionRatio: tokensAfter > 0 ? tokensBefore / tokensAfter : 1,
    summaryCompressionRatio: summaryTokens > 0 ? (input.summary?.span.tokens ?? 0) / summaryTokens : 0,
    redactions: input.redactions ?? 0,
    ...extra,
  };
}

export interface CompactionPlan {
  items: ItemFate[];
  metrics: CompactionMetrics;
  tiers: TierReport[];
  /** Steps taken inside the protected windows because the target was missed (empty when it was not). */
  escalation: EscalationStep[];
  /** What no tier removes (system, tools, pinned, the latest prompt, the original ask). */
  floor: PolicyFloor;
  /** Ids of the items kept verbatim because they match the focus text. */
  focusKept: number[];
  /** The heuristic summary the plan would insert (framed), for the preview. */
  summaryPreview?: string;
  overflow?: OverflowWarning;
}

/** Fates without LLM or I/O, for the live preview. Throws only on programming errors. */
export function plan(context: Context, input: EngineOptionsInput = {}, deps: PlanDeps = {}): CompactionPlan {
  const started = performance.now();
  const options = resolveOptions(input);
  const run = runLadder(context, options, deps);
  const tokensAfter = run.state.totalTokens;
  const overflow = overflowOf(tokensAfter, hardLimitOf(options, context.windowTokens));
  return {
    items: itemFates(run.state.planned),
    metrics: metricsOf(metricsInputOf(run), tokensAfter, { durationMs: performance.now() - started }),
    tiers: run.tiers,
    escalation: run.escalation,
    floor: policyFloor(run.state),
    focusKept: focusKept(run.state),
    ...(run.summary ? { summaryPreview: run.summary.text } : {}),
    ...(overflow ? { overflow } : {}),
  };
}
