// Fill per API call for the timeline: the adapter's per-call usage joined with the live chain and
// the compactions (the agent's and ours).
import { tokensBeforeAfter } from '../../protocol/format';
import type { TimelinePoint } from '../../protocol/messages';
import type { UsagePoint } from '../../sessions/port';
import type { CompactionEvent, LiveContext } from '../../sessions/types';

export const TIMELINE_MAX_POINTS = 5_000;

/** A compaction of ours, as the timeline marks it. */
export interface OurCompactionMark {
  at: string;
  beforeTokens: number;
  afterTokens: number;
  focus: string | null;
}

/** One point per response of the live chain, plus one per compaction (the agent's and ours), oldest first. */
export function timelineOf(
  live: Pick<LiveContext, 'entries'>,
  usage: (uuid: string) => UsagePoint | undefined,
  agent: readonly CompactionEvent[],
  ours: readonly OurCompactionMark[],
): TimelinePoint[] {
  const points: TimelinePoint[] = [];
  const seen = new Set<string>();
  for (const entry of live.entries) {
    for (const uuid of entry.uuids) {
      const point = usage(uuid);
      if (point === undefined) continue;
      const key = point.messageId ?? uuid;
      if (seen.has(key)) continue;
      seen.add(key);
      points.push({ at: point.at, usedTokens: point.usedTokens, event: null });
    }
  }
  // The label says what happened, not who: the panel names who (the agent or Context Lens) itself.
  for (const event of agent) {
    const ours = event.by === 'context-lens';
    const how = ours ? '' : event.trigger === 'auto' ? 'by itself, ' : event.trigger === 'manual' ? 'when asked, ' : '';
    const label = `${how}${tokensBeforeAfter(event.preTokens, event.postTokens)}${event.focus ? `, "${event.focus}"` : ''}`;
    points.push({ at: event.timestamp, usedTokens: event.postTokens ?? 0, event: { kind: ours ? 'ours' : 'agent', label: label.slice(0, 500) } });
  }
  for (const mark of ours) {
    const label = `${tokensBeforeAfter(mark.beforeTokens, mark.afterTokens)}${mark.focus ? `, "${mark.focus}"` : ''}`;
    points.push({ at: mark.at, usedTokens: mark.afterTokens, event: { kind: 'ours', label: label.slice(0, 500) } });
  }
  // Stable sort; points without a time go last (∞ − ∞ is NaN, hence `|| 0`).
  const time = (point: TimelinePoint): number => (point.at === null ? Number.POSITIVE_INFINITY : Date.parse(point.at));
  points.sort((a, b) => time(a) - time(b) || 0);
  return points.slice(-TIMELINE_MAX_POINTS);
}
