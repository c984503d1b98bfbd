// What is marked over the bars: a flag and a line at each compaction (the agent's, ours, the live
// proxy's, in different styles) and a ▲ under each call that missed the prompt cache.
import type { AgentLabel } from '../src/protocol/agents';
import { el } from './dom';
import type { TimelineBar } from './logic/timelineLayout';
import { eventFlag, eventName } from './logic/timelineText';
import { barFraction, type ChartGeometry } from './timelineChart';

const percent = (fraction: number): string => `${fraction * 100}%`;

/** Each event's line through the chart and its labelled flag. */
export function eventMarks(events: readonly TimelineBar[], geometry: ChartGeometry, agent: AgentLabel): HTMLElement[] {
  return events.flatMap((bar) => {
    const event = bar.point.event!;
    const line = el('span', { class: `timeline-event-line event-${event.kind}` });
    const flag = el(
      'span',
      { class: `timeline-flag event-${event.kind}`, 'data-testid': `timeline-flag-${event.kind}`, title: `${eventName(event.kind, agent)}: ${event.label}` },
      eventFlag(event.kind, agent).text,
    );
    // Through the CSSOM: the webview's CSP forbids inline style attributes.
    line.style.left = flag.style.left = percent(barFraction(bar, geometry));
    return [line, flag];
  });
}

/** A call that missed the prompt cache: a mark under its bar, its cause and cost on hover. */
export function cacheMissMarks(misses: readonly TimelineBar[], geometry: ChartGeometry): HTMLElement[] {
  return misses.map((bar) => {
    const miss = bar.point.cacheMiss!;
    const mark = el(
      'span',
      { class: `timeline-cache-miss cause-${miss.cause}`, 'data-testid': 'timeline-cache-miss', title: `call ${bar.call ?? ''}: ${miss.label}` },
      '▲',
    );
    mark.style.left = percent(barFraction(bar, geometry));
    return mark;
  });
}
