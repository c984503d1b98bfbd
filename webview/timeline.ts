// The timeline: fill per API call as a bar chart with a token axis, the window and our marks as
// faint lines, the value of a call on hover (or ←/→ when focused), and compaction events marked and
// labelled — the agent's and ours in different styles. The bars are one SVG path however many calls
// there were; the events are also listed as text, so nothing depends on the picture.
import { agentLabelOr, type AgentLabel } from '../src/protocol/agents';
import type { PanelState, TimelinePoint } from '../src/protocol/messages';
import { formatTokens, formatUsd } from '../src/protocol/format';
import { el, icon } from './dom';
import { clockTime, exactTokens, plural } from './logic/format';
import { axisTicks, barAt, barsPath, CALLS_NOTE, callCount, callsText, slotsOf, timelineBars, timelineScale, type TimelineBar } from './logic/timelineLayout';

const SVG = 'http://www.w3.org/2000/svg';
const WIDTH = 600;
const HEIGHT = 80;

function svg(tag: string, attributes: Record<string, string>): SVGElement {
  const node = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  return node;
}

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

type EventKind = NonNullable<TimelinePoint['event']>['kind'];

function eventName(kind: EventKind, agent: AgentLabel): string {
  if (kind === 'live') return 'Live proxy edited what reached the model';
  return kind === 'ours' ? 'Context Lens compacted' : `${agent.name} compacted`;
}

/** The flag's word and the list's icon for each kind of event. */
function eventFlag(kind: EventKind, agent: AgentLabel): { text: string; icon: string } {
  if (kind === 'live') return { text: 'Live', icon: 'radio-tower' };
  return kind === 'ours' ? { text: 'Context Lens', icon: 'pulse' } : { text: agent.name, icon: 'hubot' };
}

/** "call 3" for a call; a compaction's point is not a call and says what it is instead. */
function pointName(bar: TimelineBar, agent: AgentLabel): string {
  return bar.call === null ? eventName(bar.point.event!.kind, agent) : `call ${bar.call}`;
}

function pointText(bar: TimelineBar, windowTokens: number | null, agent: AgentLabel): string {
  const point = bar.point;
  const share = windowTokens ? ` (${((point.usedTokens / windowTokens) * 100).toFixed(1)} %)` : '';
  const time = point.at ? ` · ${clockTime(point.at)}` : '';
  const cost = point.usd === undefined ? '' : point.usd === null ? ' · no price' : ` · ${formatUsd(point.usd)}`;
  if (bar.call === null) return `${pointName(bar, agent)}${time} · ${point.event!.label} · ${exactTokens(point.usedTokens)} tokens left${share}`;
  const miss = point.cacheMiss ? ` · ${point.cacheMiss.label}` : '';
  return `call ${bar.call}${time} · ${exactTokens(point.usedTokens)} tokens${share}${cost}${miss}${point.event ? ` · ${eventName(point.event.kind, agent)}: ${point.event.label}` : ''}`;
}

/** The events' list under the chart: "10:42 · Context Lens compacted — 150,127 → 24,951 tokens". */
function eventListLine(bar: TimelineBar, agent: AgentLabel): string {
  const event = bar.point.event!;
  const where = bar.call === null ? (bar.point.at ? `${clockTime(bar.point.at)} · ` : '') : `call ${bar.call}: `;
  return `${where}${eventName(event.kind, agent)} — ${event.label}`;
}

export function renderTimeline({ timeline, windowTokens, thresholds, agent }: TimelineInput): HTMLElement[] {
  if (timeline.length === 0) return [];
  const bars = timelineBars(timeline, windowTokens);
  const slots = slotsOf(bars);
  const scale = timelineScale(timeline, windowTokens);
  const step = WIDTH / slots;
  const last = timeline[timeline.length - 1]!;
  const yOf = (tokens: number): number => HEIGHT * (1 - tokens / scale);
  const chart = svg('svg', { class: 'timeline-chart', viewBox: `0 0 ${WIDTH} ${HEIGHT}`, preserveAspectRatio: 'none', 'aria-hidden': 'true' });
  if (windowTokens) {
    const lines: [string, number][] = [
      ['window', windowTokens],
      ['target', (windowTokens * thresholds.targetPercent) / 100],
      ['trigger', (windowTokens * thresholds.triggerPercent) / 100],
      ...(thresholds.agentAutoCompactPercent ? [['agent', (windowTokens * thresholds.agentAutoCompactPercent) / 100] as [string, number]] : []),
    ];
    for (const [kind, tokens] of lines) {
      const y = String(yOf(tokens));
      chart.appendChild(svg('line', { class: `timeline-level level-${kind}`, x1: '0', x2: String(WIDTH), y1: y, y2: y }));
    }
  }
  chart.appendChild(svg('path', { class: 'timeline-bars', d: barsPath(bars, WIDTH, HEIGHT, slots) }));
  const highlight = svg('rect', { class: 'timeline-highlight', x: '0', y: '0', width: String(Math.max(step * 0.8, 0.5)), height: '0', visibility: 'hidden' });
  chart.appendChild(highlight);

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
  for (const bar of events) {
    const kind = bar.point.event!.kind;
    const left = `${((bar.index + 0.4) / slots) * 100}%`;
    const line = el('span', { class: `timeline-event-line event-${kind}` });
    const flag = el(
      'span',
      { class: `timeline-flag event-${kind}`, 'data-testid': `timeline-flag-${kind}`, title: `${eventName(kind, agent)}: ${bar.point.event!.label}` },
      eventFlag(kind, agent).text,
    );
    // Through the CSSOM: the webview's CSP forbids inline style attributes.
    line.style.left = flag.style.left = left;
    plot.append(line, flag);
  }
  // A call that missed the prompt cache: a mark under its bar, its cause and cost on hover.
  const misses = bars.filter((bar) => bar.point.cacheMiss !== undefined);
  for (const bar of misses) {
    const miss = bar.point.cacheMiss!;
    const mark = el(
      'span',
      { class: `timeline-cache-miss cause-${miss.cause}`, 'data-testid': 'timeline-cache-miss', title: `call ${bar.call ?? ''}: ${miss.label}` },
      '▲',
    );
    mark.style.left = `${((bar.index + 0.4) / slots) * 100}%`;
    plot.append(mark);
  }
  const tooltip = el('div', { class: 'timeline-tooltip', 'data-testid': 'timeline-tooltip', role: 'status', 'aria-live': 'polite', hidden: '' });
  plot.appendChild(tooltip);

  let shown: number | null = null;
  const show = (index: number | null): void => {
    shown = index;
    const bar = index === null ? undefined : bars[index];
    if (!bar) {
      tooltip.hidden = true;
      highlight.setAttribute('visibility', 'hidden');
      return;
    }
    tooltip.textContent = pointText(bar, windowTokens, agent);
    tooltip.hidden = false;
    const fraction = (bar.index + 0.4) / slots;
    // Kept inside the plot: anchored left on the left half, right on the right half.
    tooltip.style.left = fraction < 0.5 ? `${fraction * 100}%` : '';
    tooltip.style.right = fraction < 0.5 ? '' : `${(1 - fraction) * 100}%`;
    highlight.setAttribute('x', String(bar.index * step));
    highlight.setAttribute('y', String(yOf(bar.point.usedTokens)));
    highlight.setAttribute('height', String(HEIGHT - yOf(bar.point.usedTokens)));
    highlight.setAttribute('visibility', 'visible');
  };
  plot.addEventListener('mousemove', (event) => {
    const rect = plot.getBoundingClientRect();
    show(barAt((event.clientX - rect.left) / rect.width, bars.length, slots));
  });
  plot.addEventListener('mouseleave', () => show(null));
  plot.addEventListener('blur', () => show(null));
  plot.addEventListener('keydown', (event) => {
    const moves: Record<string, number> = { ArrowLeft: -1, ArrowRight: 1, Home: -Infinity, End: Infinity };
    const move = moves[event.key];
    if (move === undefined) return;
    event.preventDefault();
    const from = shown ?? bars.length - 1;
    show(Math.min(Math.max(move === -Infinity ? 0 : move === Infinity ? bars.length - 1 : from + move, 0), bars.length - 1));
  });

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
      el(
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
        ...(misses.length > 0 ? [' ', el('span', { class: 'timeline-cache-miss-key' }, '▲'), ` cache miss (${misses.length})`] : []),
      ),
      events.length
        ? el(
            'ul',
            { class: 'timeline-events small', 'data-testid': 'timeline-events' },
            ...events.map((bar) =>
              el('li', { class: `event-${bar.point.event!.kind}` }, icon(eventFlag(bar.point.event!.kind, agent).icon), ` ${eventListLine(bar, agent)}`),
            ),
          )
        : null,
    ),
  ];
}
