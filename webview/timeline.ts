// The timeline: fill per API call as a small bar chart, with compaction events marked (the agent's
// and ours in different styles, each with its label on hover). The chart is one SVG path however
// many calls there were; the events are also listed as text, so nothing depends on the picture.
import type { PanelState, TimelinePoint } from '../src/protocol/messages';
import { formatTokens } from '../src/protocol/format';
import { el, icon } from './dom';
import { barsPath, timelineBars } from './logic/timelineLayout';

const SVG = 'http://www.w3.org/2000/svg';
const WIDTH = 600;
const HEIGHT = 40;

function svg(tag: string, attributes: Record<string, string>): SVGElement {
  const node = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  return node;
}

export interface TimelineInput {
  readonly timeline: readonly TimelinePoint[];
  readonly windowTokens: number | null;
}

export function timelineInput(state: PanelState): TimelineInput {
  return { timeline: state.timeline, windowTokens: state.fill?.windowTokens ?? null };
}

export function renderTimeline({ timeline, windowTokens }: TimelineInput): HTMLElement[] {
  if (timeline.length === 0) return [];
  const bars = timelineBars(timeline, windowTokens);
  const last = timeline[timeline.length - 1]!;
  const chart = svg('svg', { class: 'timeline-chart', viewBox: `0 0 ${WIDTH} ${HEIGHT}`, preserveAspectRatio: 'none', role: 'img', 'aria-label': `Fill per API call: ${timeline.length} calls, now ${formatTokens(last.usedTokens)} tokens` });
  chart.appendChild(svg('path', { class: 'timeline-bars', d: barsPath(bars, WIDTH, HEIGHT) }));
  const step = WIDTH / bars.length;
  const events = bars.filter((bar) => bar.point.event !== null);
  for (const bar of events) {
    const event = bar.point.event!;
    const x = String(bar.index * step + step * 0.4);
    const line = svg('line', { class: `timeline-event event-${event.kind}`, x1: x, x2: x, y1: '0', y2: String(HEIGHT) });
    const title = svg('title', {});
    title.textContent = event.label;
    line.appendChild(title);
    chart.appendChild(line);
  }
  return [
    el(
      'section',
      { class: 'timeline', 'data-testid': 'timeline', 'aria-labelledby': 'timeline-title' },
      el('h2', { id: 'timeline-title' }, 'Timeline', el('span', { class: 'muted' }, `fill per API call · ${timeline.length} calls`)),
      chart,
      events.length
        ? el('ul', { class: 'timeline-events small' }, ...events.map((bar) => el('li', { class: `event-${bar.point.event!.kind}` }, icon(bar.point.event!.kind === 'ours' ? 'pulse' : 'hubot'), ` call ${bar.index + 1}: ${bar.point.event!.label}`)))
        : null,
    ),
  ];
}
