// The timeline's words: what an event is called, the value of a call read out on hover (or ←/→), and
// a line of the events' list. Pure, so the words are tested without a page.
import type { AgentLabel } from '../../src/protocol/agents';
import type { TimelinePoint } from '../../src/protocol/messages';
import { formatUsd } from '../../src/protocol/format';
import { clockTime, exactTokens } from './format';
import type { TimelineBar } from './timelineLayout';

export type EventKind = NonNullable<TimelinePoint['event']>['kind'];

export function eventName(kind: EventKind, agent: AgentLabel): string {
  if (kind === 'live') return 'Live proxy edited what reached the model';
  return kind === 'ours' ? 'Context Lens compacted' : `${agent.name} compacted`;
}

/** The flag's word and the list's icon for each kind of event. */
export function eventFlag(kind: EventKind, agent: AgentLabel): { text: string; icon: string } {
  if (kind === 'live') return { text: 'Live', icon: 'radio-tower' };
  return kind === 'ours' ? { text: 'Context Lens', icon: 'pulse' } : { text: agent.name, icon: 'hubot' };
}

/** "call 3" for a call; a compaction's point is not a call and says what it is instead. */
function pointName(bar: TimelineBar, agent: AgentLabel): string {
  return bar.call === null ? eventName(bar.point.event!.kind, agent) : `call ${bar.call}`;
}

/** The tooltip of one bar: "call 3 · 10:42 · 52,000 tokens (26.0 %) · $0.04 · …". */
export function pointText(bar: TimelineBar, windowTokens: number | null, agent: AgentLabel): string {
  const point = bar.point;
  const share = windowTokens ? ` (${((point.usedTokens / windowTokens) * 100).toFixed(1)} %)` : '';
  const time = point.at ? ` · ${clockTime(point.at)}` : '';
  const cost = point.usd === undefined ? '' : point.usd === null ? ' · no price' : ` · ${formatUsd(point.usd)}`;
  if (bar.call === null) return `${pointName(bar, agent)}${time} · ${point.event!.label} · ${exactTokens(point.usedTokens)} tokens left${share}`;
  const miss = point.cacheMiss ? ` · ${point.cacheMiss.label}` : '';
  return `call ${bar.call}${time} · ${exactTokens(point.usedTokens)} tokens${share}${cost}${miss}${point.event ? ` · ${eventName(point.event.kind, agent)}: ${point.event.label}` : ''}`;
}

/** The events' list under the chart: "10:42 · Context Lens compacted — 150,127 → 24,951 tokens". */
export function eventListLine(bar: TimelineBar, agent: AgentLabel): string {
  const event = bar.point.event!;
  const where = bar.call === null ? (bar.point.at ? `${clockTime(bar.point.at)} · ` : '') : `call ${bar.call}: `;
  return `${where}${eventName(event.kind, agent)} — ${event.label}`;
}
