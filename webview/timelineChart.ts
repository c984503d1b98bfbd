// The timeline's picture: one SVG with the window and our marks as faint level lines, every call's
// bar in one path however many calls there were, and the highlight the hover moves over a bar.
import type { PanelState } from '../src/protocol/messages';
import { barsPath, type TimelineBar } from './logic/timelineLayout';

const SVG = 'http://www.w3.org/2000/svg';
export const WIDTH = 600;
export const HEIGHT = 80;

/** Where things sit on the chart: shared by the chart, the marks over it and the hover. */
export interface ChartGeometry {
  /** Bar slots across the width (a few calls get narrow bars at the left). */
  readonly slots: number;
  /** One slot's width in the SVG's units. */
  readonly step: number;
  /** The SVG's y of a token count, on the chart's scale. */
  readonly yOf: (tokens: number) => number;
}

export function chartGeometry(slots: number, scale: number): ChartGeometry {
  return { slots, step: WIDTH / slots, yOf: (tokens) => HEIGHT * (1 - tokens / scale) };
}

/** A bar's middle as a fraction of the plot's width, where its flag, mark and tooltip are placed. */
export function barFraction(bar: TimelineBar, { slots }: ChartGeometry): number {
  return (bar.index + 0.4) / slots;
}

export function svg(tag: string, attributes: Record<string, string>): SVGElement {
  const node = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  return node;
}

/** The level lines' kinds and token counts: the window, our target and trigger, the agent's auto-compact. */
function levels(windowTokens: number, thresholds: PanelState['thresholds']): [string, number][] {
  return [
    ['window', windowTokens],
    ['target', (windowTokens * thresholds.targetPercent) / 100],
    ['trigger', (windowTokens * thresholds.triggerPercent) / 100],
    ...(thresholds.agentAutoCompactPercent ? [['agent', (windowTokens * thresholds.agentAutoCompactPercent) / 100] as [string, number]] : []),
  ];
}

export function timelineChart(
  bars: readonly TimelineBar[],
  geometry: ChartGeometry,
  windowTokens: number | null,
  thresholds: PanelState['thresholds'],
): { chart: SVGElement; highlight: SVGElement } {
  const chart = svg('svg', { class: 'timeline-chart', viewBox: `0 0 ${WIDTH} ${HEIGHT}`, preserveAspectRatio: 'none', 'aria-hidden': 'true' });
  if (windowTokens) {
    for (const [kind, tokens] of levels(windowTokens, thresholds)) {
      const y = String(geometry.yOf(tokens));
      chart.appendChild(svg('line', { class: `timeline-level level-${kind}`, x1: '0', x2: String(WIDTH), y1: y, y2: y }));
    }
  }
  chart.appendChild(svg('path', { class: 'timeline-bars', d: barsPath(bars, WIDTH, HEIGHT, geometry.slots) }));
  const highlight = svg('rect', {
    class: 'timeline-highlight',
    x: '0',
    y: '0',
    width: String(Math.max(geometry.step * 0.8, 0.5)),
    height: '0',
    visibility: 'hidden',
  });
  chart.appendChild(highlight);
  return { chart, highlight };
}
