// The timeline: fill per API call as a bar chart with a token axis, the window and our marks as
// faint lines, the value of a call on hover (or ←/→ when focused), and compaction events marked and
// labelled — the agent's and ours in different styles. This file puts the parts together: the
// picture (timelineChart), the marks over it (timelineMarks), reading it (timelineHover), the legend
// and the events as text (timelineLegend); the words are logic/timelineText's.
import { agentLabelOr, type AgentLabel } from '../src/protocol/agents';
import type { PanelState, TimelinePoint } from '../src/protocol/messages';
import { formatTokens } from '../src/protocol/format';
import { el } from './dom';
import { plural } from './logic/format';
import { axisTicks, CALLS_NOTE, callCount, callsText, slotsOf, timelineBars, timelineScale } from './logic/timelineLayout';
import { pointText } from './logic/timelineText';
import { chartGeometry, timelineChart } from './timelineChart';
import { attachHover } from './timelineHover';
import { eventList, timelineLegend } from './timelineLegend';
import { cacheMissMarks, eventMarks } from './timelineMarks';

export interface TimelineInput {
  readonly timeline: readonly TimelinePoint[];
  readonly windowTokens: number | null;
  readonly thresholds: PanelState['thresholds'];
  /** The followed session's agent: its compactions and auto-compact point carry its name. */
  readonly agent: AgentLabel;
}

export function timelineInput(state: PanelState): TimelineInput {
  return {
    timeline: state.timeline,
    windowTokens: state.fill?.windowTokens ?? null,
    thresholds: state.thresholds,
    agent: agentLabelOr(state.session?.agentLabel),
  };
}

export function renderTimeline({ timeline, windowTokens, thresholds, agent }: TimelineInput): HTMLElement[] {
  if (timeline.length === 0) return [];
  const bars = timelineBars(timeline, windowTokens);
  const scale = timelineScale(timeline, windowTokens);
  const geometry = chartGeometry(slotsOf(bars), scale);
  const last = timeline[timeline.length - 1]!;
  const { chart, highlight } = timelineChart(bars, geometry, windowTokens, thresholds);
  const plot = el(
    'div',
    {
      class: 'timeline-plot',
      tabindex: '0',
      role: 'img',
      'data-testid': 'timeline-plot',
      'aria-label': `Fill per API call: ${plural(callCount(timeline), 'call')}, now ${formatTokens(last.usedTokens)} tokens. Arrow keys read the calls.`,
    },
    chart,
  );
  const events = bars.filter((bar) => bar.point.event !== null);
  const misses = bars.filter((bar) => bar.point.cacheMiss !== undefined);
  plot.append(...eventMarks(events, geometry, agent), ...cacheMissMarks(misses, geometry));
  attachHover(plot, highlight, bars, geometry, (bar) => pointText(bar, windowTokens, agent));

  const axis = el('div', { class: 'timeline-axis', 'aria-hidden': 'true' }, ...axisTicks(scale).map((tokens) => el('span', {}, formatTokens(tokens))));
  return [
    el(
      'section',
      { class: 'timeline', 'data-testid': 'timeline', 'aria-labelledby': 'timeline-title' },
      el(
        'h2',
        { id: 'timeline-title' },
        'Timeline',
        el('span', { class: 'muted', title: CALLS_NOTE }, `fill per API call · ${callsText(timeline)} · hover for values`),
      ),
      el('div', { class: 'timeline-body' }, axis, plot),
      timelineLegend(thresholds, agent, misses.length),
      eventList(events, agent),
    ),
  ];
}
