// Under the chart: the legend of its lines and marks, and the events listed as text, so nothing
// depends on the picture.
import type { AgentLabel } from '../src/protocol/agents';
import type { PanelState } from '../src/protocol/messages';
import { el, icon } from './dom';
import type { TimelineBar } from './logic/timelineLayout';
import { eventFlag, eventListLine } from './logic/timelineText';

export function timelineLegend(thresholds: PanelState['thresholds'], agent: AgentLabel, misses: number): HTMLElement {
  return el(
    'p',
    { class: 'timeline-legend small muted' },
    el('span', { class: 'legend-line level-window' }),
    ' window ',
    el('span', { class: 'legend-line level-trigger' }),
    ` our trigger ${thresholds.triggerPercent} % `,
    el('span', { class: 'legend-line level-target' }),
    ` target ${thresholds.targetPercent} % `,
    ...(thresholds.agentAutoCompactPercent
      ? [el('span', { class: 'legend-line level-agent' }), ` ${agent.name} auto-compact ${thresholds.agentAutoCompactPercent.toFixed(1)} %`]
      : []),
    ...(misses > 0 ? [' ', el('span', { class: 'timeline-cache-miss-key' }, '▲'), ` cache miss (${misses})`] : []),
  );
}

/** The events as a list; null without any. */
export function eventList(events: readonly TimelineBar[], agent: AgentLabel): HTMLElement | null {
  if (events.length === 0) return null;
  return el(
    'ul',
    { class: 'timeline-events small', 'data-testid': 'timeline-events' },
    ...events.map((bar) =>
      el('li', { class: `event-${bar.point.event!.kind}` }, icon(eventFlag(bar.point.event!.kind, agent).icon), ` ${eventListLine(bar, agent)}`),
    ),
  );
}
