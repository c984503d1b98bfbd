// A compaction result as the panel previews it: metrics per tier, verification, the summary and one
// diff block per changed item. Everything shown goes through `redactSecrets` first. Free of `vscode`.
import {
  afterTexts,
  diffSides,
  diffSlots,
  EDITED_SUMMARIZER,
  redactSecrets,
  SUMMARY_TAG,
  targetMissText,
  type CompactionResult,
  type Context,
  type Verification,
} from '../../engine';
import { TIER_NAMES } from '../../protocol/categories';
import { PREVIEW_WARNING_MAX, type Choices, type DiffBlock, type ItemDetail, type Preview, type VerificationView } from '../../protocol/messages';
import { NO_CHOICES } from '../context/choices';
import { regionLabel, regionsOf } from '../context/derive';
import { itemDetailOf } from '../context/itemDetail';
import { thousands } from '../../base/format';

/** Per side of a diff block in the webview; the diff editor has its own budget of lines (engine/diff.ts). */
export const DIFF_BLOCK_MAX_CHARS = 20_000;
export const DROPPED_TEXT = '(dropped: summarised)';

export function verificationView(verification: Verification): VerificationView {
  return {
    ok: verification.ok,
    constraintsTotal: verification.constraints.length,
    constraintsKept: verification.constraints.filter((constraint) => constraint.present).length,
    reinjected: verification.reinjected,
    openLoopsBefore: verification.openLoopsBefore,
    openLoopsAfter: verification.openLoopsAfter,
    filesLost: verification.filesLost,
    contradictions: verification.contradictions.map(({ line, laterItemId, laterText }) => ({
      line: capped(line, 400),
      laterItemId,
      laterText: capped(laterText, 400),
    })),
  };
}

function capped(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}\n… (${thousands(text.length - max)} more characters)` : text;
}

/** One block per item the compaction changed: original text vs stub, truncation or the drop note. */
export function diffBlocksOf(context: Context, result: CompactionResult, maxChars = Number.POSITIVE_INFINITY): DiffBlock[] {
  if (result.status !== 'compacted') return [];
  const compacted = afterTexts(result)?.compacted ?? new Map<number, string>();
  return result.items.flatMap((fate) => {
    const item = context.items[fate.id];
    if (item === undefined || fate.fate === 'preserved') return [];
    const after = fate.fate === 'dropped' ? (fate.tier === 'summarize' ? DROPPED_TEXT : `(dropped: ${fate.reason})`) : (compacted.get(fate.id) ?? '');
    return [
      {
        id: fate.id,
        label: regionLabel(item, context.workspace),
        fate: fate.fate,
        before: capped(redactSecrets(item.text), maxChars),
        after: capped(redactSecrets(after), maxChars),
      },
    ];
  });
}

/**
 * VS Code's diff editor shows no text until its diff is computed. Below this many lines on the two
 * sides together it uses a dynamic program over every pair of lines, checking its clock at each
 * step; above, a Myers diff whose cost follows the lines that changed. On the demo at a 40k window
 * (1,050 + 467 lines) that was 0.5–1.5 s against 0.02–0.3 s once past the threshold.
 */
export const VSCODE_LINEAR_DIFF_LINES = 1_700;

const lineCount = (text: string): number => text.split('\n').length;

/**
 * The two texts of "Open in Diff Editor": the whole context on each side under the same item headers
 * (see engine/diff.ts), with the after texts the webview's blocks show. Documents too short for VS
 * Code's fast diff get the same blank lines at their end. Null when the result does not line up with
 * the context.
 */
export function diffDocuments(context: Context, result: CompactionResult): { before: string; after: string } | null {
  const texts = afterTexts(result);
  const slots = texts && diffSlots(context.items, result.items, texts, (item) => regionLabel(item, context.workspace));
  if (!slots) return null;
  const { before, after } = diffSides(slots);
  const short = VSCODE_LINEAR_DIFF_LINES - lineCount(before) - lineCount(after);
  const padding = short > 0 ? '\n'.repeat(Math.ceil(short / 2)) : '';
  return { before: before + padding, after: after + padding };
}

export interface PreviewInput {
  id: string;
  focus: string;
  summarizer: string;
  context: Context;
  result: CompactionResult;
  /** The choices the run was given. */
  choices?: Choices;
}

type TierSummary = Preview['tiers'][number];

/**
 * The steps as the rows show them: each item counted once, under the tier that decided its final
 * fate, with what it saved in the end (a stub that was then summarised counts for the summary, and
 * the note says it was stubbed first). The engine's own tiers credit each step when it acted, so a
 * stubbed-then-summarised item is counted twice there; the books still balance here, since the
 * summary's own tokens come off the summarising step.
 */
export function tiersOf(result: CompactionResult): TierSummary[] {
  const summaryTokens = result.summary ? result.summary.tokens - result.metrics.reinjectedTokens : 0;
  return result.tiers.map((tier): TierSummary => {
    const decided = result.items.filter((fate) => fate.tier === tier.tier && fate.fate !== 'preserved');
    const removed = decided.reduce((sum, fate) => sum + fate.tokensBefore - fate.tokensAfter, 0);
    const prunedFirst = new Map<string, number>();
    for (const fate of decided) if (fate.prunedBy && fate.prunedBy !== tier.tier) prunedFirst.set(fate.prunedBy, (prunedFirst.get(fate.prunedBy) ?? 0) + 1);
    const firsts = [...prunedFirst].map(([by, count]) => `${count} of them first by "${TIER_NAMES[by] ?? by}"`);
    const note = [tier.note, ...firsts].filter((part): part is string => Boolean(part)).join('; ');
    return {
      tier: tier.tier,
      items: decided.length,
      tokensSaved: tier.tier === 'summarize' && decided.length > 0 ? removed - summaryTokens : removed,
      note: note || null,
    };
  });
}

/**
 * Redacted before clipping (a clip through the middle of a secret would hide it from the patterns);
 * only `text` is clipped, so the conclusion after it is always read.
 */
function warningOf(text: string, conclusion = ''): string {
  const redacted = redactSecrets(text);
  const room = PREVIEW_WARNING_MAX - conclusion.length;
  return `${redacted.length > room ? `${redacted.slice(0, room - 1)}…` : redacted}${conclusion}`;
}

/** Why the configured summarizer's text is not the one used (S9: say so), or null. */
function summaryFallbackOf(result: CompactionResult): string | null {
  const summary = result.summary;
  return summary?.fellBack ? warningOf(summary.error ?? 'the summarizer failed', ' — used the heuristic summary') : null;
}

function overflowWarningOf(result: CompactionResult): string | null {
  return result.overflow ? warningOf(result.overflow.message) : null;
}

/** The summary's body between its tags, and what follows them (a re-injected pinned block). */
const summaryParts = (text: string): RegExpExecArray | null => new RegExp(`<${SUMMARY_TAG}[^>]*>\\n?([\\s\\S]*?)\\n?</${SUMMARY_TAG}>([\\s\\S]*)$`).exec(text);

/**
 * The summary as a person reads it: the body and anything after it (a re-injected pinned block),
 * without the anti-injection sentence and the tags that frame it for the model.
 */
export function readableSummary(text: string): string {
  const match = summaryParts(text);
  return match ? `${match[1] ?? ''}${match[2] ?? ''}`.trim() : text;
}

/** The body alone: what a person edits (the frame and the re-injected block are the engine's to add). */
export function summaryBodyOf(text: string): string {
  const match = summaryParts(text);
  return (match ? (match[1] ?? '') : text).trim();
}

export function previewOf({ id, focus, summarizer, context, result, choices = NO_CHOICES }: PreviewInput): Preview {
  const summary = result.summary ? redactSecrets(result.summary.text) : null;
  return {
    id,
    focus,
    status: result.status,
    message: redactSecrets(result.error ? `${result.message} (${result.error})` : result.message),
    summarizer: result.summary?.summarizer ?? summarizer,
    beforeTokens: result.metrics.tokensBefore,
    afterTokens: result.metrics.tokensAfter,
    savingsPct: result.metrics.savingsPercent,
    tiers: tiersOf(result),
    verification: result.verification ? verificationView(result.verification) : null,
    summary,
    summaryReadable: summary === null ? null : readableSummary(summary),
    targetTokens: result.metrics.targetTokens,
    targetMet: result.metrics.targetMet,
    targetMiss: result.targetMiss ? warningOf(targetMissText(result.metrics.targetTokens, result.targetMiss)) : null,
    summaryFallback: summaryFallbackOf(result),
    overflow: overflowWarningOf(result),
    redactions: result.metrics.redactions,
    diff: diffBlocksOf(context, result, DIFF_BLOCK_MAX_CHARS),
    regions: regionsOf(context, result.items),
    applied: null,
    choices,
    stale: null,
    summaryBody: summary === null ? null : summaryBodyOf(summary),
    summaryEdited: result.summary?.summarizer === EDITED_SUMMARIZER,
    // Priced where the session's calls are known (CompactionFlow, via context/costs.ts).
    breakEven: null,
  };
}

/** The detail pane while a preview is shown: the item as that run saw it, with the fate it gave it. */
export function previewItemDetail(context: Context, result: CompactionResult, id: number): ItemDetail | null {
  return itemDetailOf(
    context,
    id,
    result.items.find((fate) => fate.id === id),
  );
}
