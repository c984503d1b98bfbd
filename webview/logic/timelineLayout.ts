// Geometry of the timeline chart: one bar per API call, scaled to the window (or to the highest
// point if a transcript overshot it), a token axis, where a hover lands, and the compaction events
// to mark. DOM-free for tests.
import type { TimelinePoint } from '../../src/protocol/messages';
import { plural } from './format';

export interface TimelineBar {
  readonly index: number;
  /** Bar height as a share of the chart, 0–1. */
  readonly height: number;
  readonly point: TimelinePoint;
  /**
   * Which API call this is (1-based), or null for a compaction's point: the fill a compaction left
   * is drawn as a bar, but it is not a call of the session and must not shift the calls' numbers.
   */
  readonly call: number | null;
}

/** A point that stands for a compaction (the agent's or ours) rather than for an API call. */
export function isCompactionPoint(point: TimelinePoint): boolean {
  return point.event !== null && point.event.kind !== 'live';
}

/** How many API calls the points hold (compactions left out). */
export function callCount(points: readonly TimelinePoint[]): number {
  return points.filter((point) => !isCompactionPoint(point)).length;
}

/** Why this count differs from the session cost's: said on hover. */
export const CALLS_NOTE =
  "The calls of the conversation the current context grew from. The session cost counts every call the session paid for: before compactions, subagents' and side calls included.";

/** "18 calls since the last compaction": which calls, so the session cost's larger count is not a contradiction. */
export function callsText(timeline: readonly TimelinePoint[]): string {
  const calls = plural(callCount(timeline), 'call');
  return timeline.some((point) => isCompactionPoint(point)) ? `${calls} since the last compaction` : `${calls} of the conversation`;
}

/** Fewer calls than this still get bars of this width: six calls should not fill the panel. */
export const MIN_SLOTS = 60;

/** Tokens at the top of the chart: the window, or the highest point if a call overshot it. */
export function timelineScale(points: readonly TimelinePoint[], windowTokens: number | null): number {
  const peak = points.reduce((max, point) => Math.max(max, point.usedTokens), 0);
  return Math.max(windowTokens ?? 0, peak, 1);
}

export function timelineBars(points: readonly TimelinePoint[], windowTokens: number | null): TimelineBar[] {
  const scale = timelineScale(points, windowTokens);
  let calls = 0;
  return points.map((point, index) => ({ index, height: point.usedTokens / scale, point, call: isCompactionPoint(point) ? null : ++calls }));
}

/** Horizontal slots the chart is divided into: one per call, at least MIN_SLOTS. */
export function slotsOf(bars: readonly TimelineBar[]): number {
  return Math.max(bars.length, MIN_SLOTS);
}

/** An SVG path of all bars at once: 5,000 calls stay one DOM node instead of 5,000. */
export function barsPath(bars: readonly TimelineBar[], width: number, height: number, slots = bars.length): string {
  if (bars.length === 0) return '';
  const step = width / Math.max(slots, bars.length);
  const barWidth = Math.max(step * 0.8, 0.5);
  return bars
    .map((bar) => {
      const barHeight = Math.max(bar.height * height, bar.point.usedTokens > 0 ? 0.5 : 0);
      const x = bar.index * step;
      return `M${round(x)} ${round(height)}h${round(barWidth)}v${round(-barHeight)}h${round(-barWidth)}z`;
    })
    .join('');
}

/** The call under a pointer at `fraction` (0–1) of the chart's width, or null past the last call. */
export function barAt(fraction: number, bars: number, slots: number): number | null {
  if (bars === 0 || !Number.isFinite(fraction)) return null;
  const index = Math.floor(Math.min(Math.max(fraction, 0), 0.999999) * Math.max(slots, bars));
  return index < bars ? index : bars - 1;
}

/** Axis ticks in tokens, top to bottom: the scale, its half, zero. */
export function axisTicks(scale: number): number[] {
  return [scale, Math.round(scale / 2), 0];
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}
