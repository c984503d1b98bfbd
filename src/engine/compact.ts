// `compact`: plan, persist, summarise, verify, report — and never throw. Any failure (a hook, the
// tokenizer, the archive, a bug) returns the original context untouched with the error (S20): a
// broken compaction must never cost the agent its context.
import type { Archive, ArchiveRef } from './archive';
import type { AfterTexts } from './afterTexts';
import { diffSlots, unifiedDiff } from './diff';
import { focusKept, holdingItems, policyFloor } from './ladder/escalate';
import { targetMissOf, targetMissText } from './ladder/missed';
import { settleRefs } from './ladder/stubText';
import { countNew } from './ladder/state';
import type { Context } from './model';
import { hardLimitOf, resolveOptions, type EngineOptions, type EngineOptionsInput } from './options';
import { anthropicFormatter, contextAfter, outputItems, type MessageFormatter, type OutputItem } from './output';
import { metricsInputOf, metricsOf, runLadder, settleSummary, type LadderRun, type PlanDeps } from './plan';
import { withRequests } from './policy/pinned';
import { redactSecretsWithCounts } from './redact';
import { itemFates, overflowOf, type CompactionResult, type CompactionStatus, type SummaryInfo } from './result';
import { HeuristicSummarizer } from './summarizers/heuristic';
import { checkSummary } from './summarizers/repair';
import { runSummarizer, type SummaryOutcome } from './summarizers/run';
import { frameSummary } from './summarizers/template';
import { errorText, type Summarizer } from './summarizers/types';
import { missingPins, renderPinnedBlock, verify } from './verify';
import { thousands } from '../base/format';

export interface CompactionHooks {
  /** Runs before planning; throwing aborts the compaction (fail-open). */
  onBeforeCompaction?(context: Context, options: EngineOptions): void | Promise<void>;
  /** Sees every result, including no-ops and failures. */
  onAfterCompaction?(result: CompactionResult): void | Promise<void>;
}

export interface CompactDeps extends PlanDeps {
  /** Default: the heuristic summarizer. */
  summarizer?: Summarizer;
  /** Required for tier 4: nothing is dropped that was not persisted first (S13). */
  archive?: Archive;
  formatter?: MessageFormatter;
  hooks?: CompactionHooks;
  signal?: AbortSignal;
  now?: () => Date;
}

/** A result that leaves the context as it was: no-op, low-savings skip or failure. */
function unchanged(
  context: Context,
  options: EngineOptions,
  formatter: MessageFormatter,
  status: CompactionStatus,
  message: string,
  started: number,
  run?: LadderRun,
  error?: string,
): CompactionResult {
  const items = context.items.map((item): OutputItem => ({
    kind: item.kind,
    role: item.role,
    text: item.text,
    tokens: item.tokens,
    original: item,
    changed: false,
  }));
  const tokens = context.items.reduce((sum, item) => sum + item.tokens, 0);
  const overflow = overflowOf(tokens, hardLimitOf(options, context.windowTokens));
  const fates = context.items.map((item) => ({
    id: item.id,
    kind: item.kind,
    role: item.role,
    turn: item.turn,
    fate: 'preserved' as const,
    reason: message,
    tokensBefore: item.tokens,
    tokensAfter: item.tokens,
  }));
  const metrics = metricsOf({ tokensBefore: tokens, targetTokens: run?.state.targetTokens ?? 0, tiers: [], planned: [] }, tokens, {
    skippedLowSavings: status === 'skipped-low-savings',
    failedOpen: status === 'failed-open',
    durationMs: performance.now() - started,
  });
  const floor = run ? policyFloor(run.state) : undefined;
  const heldBy = run ? holdingItems(run.state) : undefined;
  // A no-op above its target says why, as a compaction that missed it does.
  const miss = run && status === 'noop' ? targetMissOf(tokens, run.state.targetTokens, floor, heldBy) : null;
  return {
    status,
    message: miss ? `${message}; ${targetMissText(run?.state.targetTokens ?? 0, miss)}` : message,
    ...(miss ? { targetMiss: miss } : {}),
    items: fates,
    metrics,
    // The tiers that ran still explain a skip ("would have saved 3 %").
    tiers: run?.tiers ?? [],
    escalation: run?.escalation ?? [],
    focusKept: [],
    ...(floor && heldBy ? { floor, heldBy } : {}),
    after: context,
    conversation: formatter(items),
    diff: '',
    ...(overflow ? { overflow } : {}),
    ...(error ? { error } : {}),
  };
}

/** What `afterTexts` reads back from a result, straight from the plan (a context may carry no sourceRefs). */
function plannedTexts(run: LadderRun, inserted: { index: number; item: OutputItem } | undefined): Pick<AfterTexts, 'compacted' | 'placed'> {
  const planned = run.state.planned;
  const compacted = new Map(planned.filter((entry) => entry.fate === 'compacted').map((entry) => [entry.item.id, entry.text]));
  if (!inserted) return { compacted, placed: [] };
  const next = planned.slice(inserted.index).find((entry) => entry.fate !== 'dropped');
  return { compacted, placed: [{ text: inserted.item.text, kind: inserted.item.kind, before: next?.item.id ?? null }] };
}

/** Names the person as the author of an edited summary (in the preview and the summary's frame). */
export const EDITED_SUMMARIZER = 'edited';

async function summarise(run: LadderRun, options: EngineOptions, deps: CompactDeps, remainingMs: number): Promise<SummaryOutcome> {
  const planned = run.summary;
  if (!planned) throw new Error('no summary planned');
  if (options.summaryOverride.trim() !== '') {
    // Masked like any summarizer's text: a pasted key must not reach the fork.
    const { text, count } = redactSecretsWithCounts(options.summaryOverride.trim());
    return { text, summarizer: EDITED_SUMMARIZER, fellBack: false, durationMs: 0, redactions: count };
  }
  const summarizer = deps.summarizer ?? new HeuristicSummarizer(deps.summaryBuilder);
  return runSummarizer(summarizer, planned.request, {
    timeoutMs: Math.max(1, remainingMs),
    ...(deps.signal ? { signal: deps.signal } : {}),
    ...(deps.summaryBuilder ? { builder: deps.summaryBuilder } : {}),
  });
}

type Inserted = { index: number; item: OutputItem };

/** The summary item a compaction inserts: the summarizer's (checked, repaired, or replaced by the heuristic one) or the person's. */
async function writeSummary(
  run: LadderRun,
  options: EngineOptions,
  deps: CompactDeps,
  started: number,
  archive: ArchiveRef | undefined,
): Promise<{ inserted?: Inserted; summary?: SummaryInfo }> {
  if (!run.summary) return {};
  const outcome = await summarise(run, options, deps, options.timeoutMs - (performance.now() - started));
  const frame = (body: string, by: string): string =>
    frameSummary(body, options.summary.antiInjectionPrefix, {
      summarizedItems: run.summary?.span.entries.length ?? 0,
      summarizer: by,
      ...(archive ? { archiveId: archive.id } : {}),
    });
  // A model's summary is checked, never taken as is: rejected when malformed, else repaired. The
  // person's own text is written as they wrote it (verification below still reports what it lost).
  const check =
    outcome.fellBack || outcome.summarizer === 'heuristic' || outcome.summarizer === EDITED_SUMMARIZER
      ? ({ verdict: 'ok' } as const)
      : checkSummary(outcome.text, run.summary.request);
  // What the repair adds comes from the span itself: masked like everything else the engine writes.
  const repaired = check.verdict === 'repaired' ? redactSecretsWithCounts(check.text) : undefined;
  const body = repaired?.text ?? outcome.text;
  let text = frame(body, outcome.summarizer);
  let tokens = countNew(run.state, text);
  let fellBack = outcome.fellBack;
  let error = outcome.error;
  let redactions = outcome.redactions + (repaired?.count ?? 0);
  if (check.verdict === 'rejected' || tokens >= run.summary.span.tokens || outcome.text.trim() === '') {
    // An overlong, empty or malformed model summary would make things worse: the heuristic one is bounded.
    error =
      check.verdict === 'rejected'
        ? `${outcome.summarizer} summary rejected: ${check.why}; the heuristic summary is used instead`
        : `${outcome.summarizer} summary unusable (${tokens} tokens for a ${run.summary.span.tokens}-token span)`;
    fellBack = true;
    text = run.summary.text;
    tokens = countNew(run.state, text);
    redactions = run.summary.redactions;
  }
  settleSummary(run, text, tokens, redactions);
  const inserted: Inserted = { index: run.summary.span.insertIndex, item: { kind: 'summary', role: 'user', text, tokens, changed: true } };
  const summary: SummaryInfo = {
    text,
    tokens,
    summarizer: fellBack ? 'heuristic' : outcome.summarizer,
    fellBack,
    ...(error ? { error } : {}),
    summarizedItems: run.summary.span.entries.length,
    summarizedTokens: run.summary.span.tokens,
    ...(check.verdict === 'repaired' && !fellBack ? { repaired: check.added } : {}),
  };
  return { inserted, summary };
}

/**
 * The pinned constraints the compacted text no longer holds, re-injected: appended to the summary, or
 * as a reminder after the original ask. Outside the anti-injection frame on purpose: constraints are
 * instructions that must keep holding.
 */
function reinjectPins(
  run: LadderRun,
  inserted: Inserted | undefined,
  summary: SummaryInfo | undefined,
): { items: OutputItem[]; inserted?: Inserted; missing: ReturnType<typeof missingPins>; reinjectedTokens: number } {
  const missing = missingPins(
    withRequests(run.state.policy.pinned),
    outputItems(run.state.planned, inserted)
      .map((item) => item.text)
      .join('\n'),
  );
  if (missing.length === 0) return { items: outputItems(run.state.planned, inserted), ...(inserted ? { inserted } : {}), missing, reinjectedTokens: 0 };
  const pinnedBlock = redactSecretsWithCounts(renderPinnedBlock(missing));
  run.state.redactions += pinnedBlock.count;
  const block = pinnedBlock.text;
  let reinjectedTokens: number;
  if (inserted) {
    const summaryTokens = inserted.item.tokens;
    inserted.item.text = `${inserted.item.text}\n\n${block}`;
    inserted.item.tokens = countNew(run.state, inserted.item.text);
    reinjectedTokens = inserted.item.tokens - summaryTokens;
    if (summary) Object.assign(summary, { text: inserted.item.text, tokens: inserted.item.tokens });
  } else {
    const askIndex = run.state.policy.originalAskId ?? -1;
    inserted = { index: askIndex + 1, item: { kind: 'reminder', role: 'user', text: block, tokens: countNew(run.state, block), changed: true } };
    reinjectedTokens = inserted.item.tokens;
  }
  return { items: outputItems(run.state.planned, inserted), inserted, missing, reinjectedTokens };
}

async function apply(context: Context, options: EngineOptions, deps: CompactDeps, started: number): Promise<CompactionResult> {
  const formatter = deps.formatter ?? anthropicFormatter;
  await deps.hooks?.onBeforeCompaction?.(context, options);
  const run = runLadder(context, options, deps, deps.archive !== undefined);
  if (!deps.archive && options.summary.enabled && (run.state.runAllTiers || run.state.totalTokens > run.state.targetTokens)) {
    run.tiers.push({ tier: 'summarize', acted: 0, tokensSaved: 0, note: 'skipped: summarising drops items, which needs an archive to persist them first' });
  }
  // Dropping what the agent re-attached once is not a change of its own: a fork would not send it anyway.
  const changed = run.state.planned.some((planned) => planned.fate !== 'preserved' && planned.item.reattached !== true) || run.summary !== undefined;
  const tokensBefore = context.items.reduce((sum, item) => sum + item.tokens, 0);
  if (!changed) {
    const why =
      tokensBefore <= run.state.targetTokens && !run.state.runAllTiers ? 'already at or below the target' : 'nothing compactable outside preserved items';
    return unchanged(context, options, formatter, 'noop', why, started, run);
  }
  const projectedSavings = ((tokensBefore - run.state.totalTokens) / Math.max(1, tokensBefore)) * 100;
  if (options.trigger !== 'manual' && projectedSavings < options.minSavingsPercent) {
    return unchanged(
      context,
      options,
      formatter,
      'skipped-low-savings',
      `skipped: projected saving ${projectedSavings.toFixed(1)} % < ${options.minSavingsPercent} %`,
      started,
      run,
    );
  }

  const now = deps.now?.() ?? new Date();
  let archive: ArchiveRef | undefined;
  if (deps.archive)
    archive = await deps.archive.put({
      createdAt: now.toISOString(),
      reason: options.focus ? `${options.trigger}: ${options.focus}` : options.trigger,
      context,
    });
  // Stubs cite the entry that holds what they replaced, so the agent can ask for it back.
  settleRefs(run.state, run.tiers, archive?.id);

  const written = await writeSummary(run, options, deps, started, archive);
  const { summary } = written;
  const { items, missing, reinjectedTokens, inserted } = reinjectPins(run, written.inserted, summary);
  const outputText = items.map((item) => item.text).join('\n');
  const verification = verify({
    before: context.items,
    pinned: run.state.policy.pinned,
    missingBeforeReinjection: missing,
    outputText,
    ...(context.workspace ? { workspace: context.workspace } : {}),
  });
  const after = contextAfter(context, items);
  const overflow = overflowOf(after.usedTokens, hardLimitOf(options, context.windowTokens));
  const metrics = metricsOf(metricsInputOf(run), after.usedTokens, { durationMs: performance.now() - started, reinjectedTokens });
  // The ladder decided on its estimate; what was written (real archive id, the summarizer's text,
  // re-injected constraints) is the figure the last step reports, and only it meets a target.
  const lastStep = run.escalation.at(-1);
  if (lastStep) Object.assign(lastStep, { tokensAfter: after.usedTokens, targetMet: after.usedTokens <= run.state.targetTokens });
  const floor = policyFloor(run.state);
  const heldBy = after.usedTokens > run.state.targetTokens ? holdingItems(run.state) : undefined;
  const miss = targetMissOf(after.usedTokens, run.state.targetTokens, floor, heldBy);
  const result: CompactionResult = {
    status: 'compacted',
    message: `compacted ${thousands(tokensBefore)} → ${thousands(after.usedTokens)} tokens (−${metrics.savingsPercent.toFixed(1)} %)${miss ? `; ${targetMissText(run.state.targetTokens, miss)}` : ''}`,
    ...(miss ? { targetMiss: miss } : {}),
    items: itemFates(run.state.planned),
    metrics,
    tiers: run.tiers,
    escalation: run.escalation,
    floor,
    ...(heldBy ? { heldBy } : {}),
    focusKept: focusKept(run.state),
    after,
    conversation: formatter(items),
    ...(summary ? { summary } : {}),
    verification,
    diff: '',
    ...(overflow ? { overflow } : {}),
    ...(archive ? { archive } : {}),
  };
  const slots = diffSlots(context.items, result.items, plannedTexts(run, inserted));
  return { ...result, diff: slots ? unifiedDiff(slots) : '' };
}

/**
 * Compacts `context` towards the target with the gentlest tiers that suffice. Never throws: on any
 * error the result holds the original context, `status: 'failed-open'` and the error.
 */
export async function compact(context: Context, input: EngineOptionsInput = {}, deps: CompactDeps = {}): Promise<CompactionResult> {
  const started = performance.now();
  const options = resolveOptions(input);
  const formatter = deps.formatter ?? anthropicFormatter;
  let result: CompactionResult;
  try {
    result = await apply(context, options, deps, started);
  } catch (error) {
    result = failOpen(context, options, formatter, started, error);
  }
  try {
    await deps.hooks?.onAfterCompaction?.(result);
  } catch (error) {
    result = failOpen(context, options, formatter, started, error);
  }
  return result;
}

function failOpen(context: Context, options: EngineOptions, formatter: MessageFormatter, started: number, error: unknown): CompactionResult {
  const message = `compaction failed, context left unchanged: ${errorText(error)}`;
  try {
    return unchanged(context, options, formatter, 'failed-open', message, started, undefined, errorText(error));
  } catch {
    // Even formatting failed (e.g. a broken custom formatter): report without a conversation.
    return unchanged(context, options, anthropicFormatter, 'failed-open', message, started, undefined, errorText(error));
  }
}
