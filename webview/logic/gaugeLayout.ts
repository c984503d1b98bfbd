// Geometry and wording of the fill gauge, kept DOM-free: which segments to stack, how wide each is,
// and what each threshold mark means. Widths only re-express the host's token counts as percent.
import type { AgentLabel } from '../../src/protocol/agents';
import { CATEGORIES, type Breakdown, type Category, type Fill, type Thresholds } from '../../src/protocol/messages';
import { percentOf } from '../../src/protocol/format';

export type SegmentKey = Category | 'used' | 'free' | 'reserved';

export interface Segment {
  readonly key: SegmentKey;
  /** What the segment stands for on the bar (a category's share spread over the exact total). */
  readonly tokens: number;
  /**
   * What the legend and the hover say: the breakdown's own count, as the status bar tooltip and
   * `ctxlens inspect` print it (the spread share rounded apart from it: "assistant 620" against 621).
   */
  readonly count: number;
  /** Share of the bar's width, 0–100. */
  readonly percent: number;
}

/**
 * Stacked segments in protocol order, then free space, then the reserved output at the far end.
 * Without a breakdown the used tokens are one "used" segment. If the parts exceed the window
 * (a transcript past its window) everything is scaled down so the bar never overflows.
 */
export function gaugeSegments(fill: Fill, breakdown: Breakdown, reservedOutputTokens: number): Segment[] {
  const byCategory = new Map(breakdown.map((entry) => [entry.category, entry.tokens]));
  const breakdownTotal = breakdown.reduce((sum, entry) => sum + entry.tokens, 0);
  // The breakdown is recounted after the exact total moves (a debounced read of the transcript);
  // until then its shares are spread over the exact total so the bar always matches the number.
  const factor = breakdownTotal > 0 ? fill.usedTokens / breakdownTotal : 0;
  const used: { key: SegmentKey; tokens: number; count: number }[] =
    breakdownTotal > 0
      ? CATEGORIES.map((category) => ({
          key: category,
          tokens: Math.round((byCategory.get(category) ?? 0) * factor),
          count: byCategory.get(category) ?? 0,
        })).filter((part) => part.tokens > 0)
      : [{ key: 'used', tokens: fill.usedTokens, count: fill.usedTokens }];
  const usedTotal = used.reduce((sum, part) => sum + part.tokens, 0);
  const reserved = Math.max(Math.min(reservedOutputTokens, fill.windowTokens - usedTotal), 0);
  const free = Math.max(fill.windowTokens - usedTotal - reserved, 0);
  const parts = [...used, { key: 'free' as const, tokens: free, count: free }, { key: 'reserved' as const, tokens: reserved, count: reserved }];
  const scale = Math.max(fill.windowTokens, usedTotal + free + reserved);
  return parts.map((part) => ({ ...part, percent: percentOf(part.tokens, scale) }));
}

/** Segments narrower than this get no in-bar text (the legend still names them). */
export const INLINE_LABEL_MIN_PERCENT = 7;

export type MarkKind = 'target' | 'trigger' | 'safety' | 'agent';

export interface Mark {
  readonly kind: MarkKind;
  readonly percent: number;
  readonly label: string;
  /** Hover text: what the mark means and which setting moves it. */
  readonly title: string;
}

/** A mark's label placed under the bar: on which line, and which of its edges sits on the mark. */
export interface PlacedLabel {
  readonly kind: MarkKind;
  readonly row: number;
  readonly align: 'center' | 'start' | 'end';
}

/**
 * Lines for the marks' names, so two close marks (our trigger next to the agent's point) never
 * print over each other: each label takes the first line where it clears the ones already there.
 * `charsAcross`: how many characters of the label font fit across the bar.
 */
export function placeLabels(marks: readonly Mark[], charsAcross: number): PlacedLabel[] {
  const span = (mark: Mark): [number, number] => {
    const width = ((mark.label.length + 1) / Math.max(charsAcross, 1)) * 100;
    // Near an end the label hangs inward instead of past the bar.
    if (mark.percent - width / 2 < 0) return [mark.percent, mark.percent + width];
    if (mark.percent + width / 2 > 100) return [mark.percent - width, mark.percent];
    return [mark.percent - width / 2, mark.percent + width / 2];
  };
  const rows: [number, number][][] = [];
  return [...marks]
    .sort((a, b) => a.percent - b.percent)
    .map((mark) => {
      const [from, to] = span(mark);
      let row = rows.findIndex((taken) => taken.every(([start, end]) => to <= start || from >= end));
      if (row === -1) row = rows.push([]) - 1;
      rows[row]!.push([from, to]);
      const align = from === mark.percent ? 'start' : to === mark.percent ? 'end' : 'center';
      return { kind: mark.kind, row, align };
    });
}

/** `label`: the followed session's agent (its mark and tooltip name it). */
export function gaugeMarks(thresholds: Thresholds, label: AgentLabel): Mark[] {
  const marks: Mark[] = [
    {
      kind: 'target',
      percent: thresholds.targetPercent,
      label: `target ${thresholds.targetPercent} %`,
      title: `Our target: a compaction shrinks the context to ${thresholds.targetPercent} % of the window. Setting: contextLens.trigger.targetPercent`,
    },
    {
      kind: 'trigger',
      percent: thresholds.triggerPercent,
      label: `our trigger ${thresholds.triggerPercent} %`,
      title: `Our trigger: at ${thresholds.triggerPercent} % Context Lens offers to compact (Compact… with a focus, or Preview). Setting: contextLens.trigger.thresholdPercent`,
    },
    {
      kind: 'safety',
      percent: thresholds.safetyNetPercent,
      label: `safety net ${thresholds.safetyNetPercent} %`,
      title: `Safety net: at ${thresholds.safetyNetPercent} % Context Lens urges a compaction, even after an offer at the trigger. Setting: contextLens.trigger.safetyNetPercent`,
    },
  ];
  const agent = thresholds.agentAutoCompactPercent;
  // 0 means "no auto-compact point" (tiny override windows), so it gets no mark either.
  if (agent !== null && agent > 0) {
    marks.push({
      kind: 'agent',
      percent: agent,
      label: `${label.name} ${agent.toFixed(1)} %`,
      title: `${label.name} compacts by itself at about ${agent.toFixed(1)} % of the window. Set by ${label.pointSetBy}`,
    });
  }
  return marks;
}

export type FillLevel = 'ok' | 'warning' | 'error';

/** Warning past our trigger, error past the agent's own auto-compact point (as the status bar). */
export function fillLevel(fill: Fill, thresholds: Thresholds): FillLevel {
  const percent = percentOf(fill.usedTokens, fill.windowTokens);
  const agent = thresholds.agentAutoCompactPercent;
  if (agent !== null && agent > 0 && percent >= agent) return 'error';
  if (percent >= thresholds.triggerPercent) return 'warning';
  return 'ok';
}
