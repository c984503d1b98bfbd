// Fill per API call for the timeline: every assistant response's usage, read incrementally (only
// the bytes appended since the last read), joined with the live chain and the compactions.
import type { TimelinePoint } from '../../protocol/messages';
import { readForward } from '../../sessions/claude-code/jsonl';
import { requestTokens, str, usageOf, uuidOf } from '../../sessions/claude-code/records';
import type { CompactionEvent, LiveContext } from '../../sessions/types';

export const TIMELINE_MAX_POINTS = 5_000;

export interface UsagePoint {
  at: string | null;
  usedTokens: number;
  /** Claude Code writes one record per content block of a response, all with the same message id. */
  messageId: string | null;
}

/** A compaction of ours, as the timeline marks it. */
export interface OurCompactionMark {
  at: string;
  beforeTokens: number;
  afterTokens: number;
  focus: string | null;
}

/** Usage of every assistant record of one transcript, by record uuid. Reads only appended bytes. */
export class UsageLog {
  private readonly byUuid = new Map<string, UsagePoint>();
  private offset = 0;
  private line = 1;

  constructor(readonly path: string) {}

  async update(): Promise<void> {
    const read = await readForward(this.path, { start: this.offset, startLine: this.line, keepPending: true });
    if (read.size < this.offset) {
      // Truncated or replaced: start over.
      this.byUuid.clear();
      this.offset = 0;
      this.line = 1;
      return this.update();
    }
    for (const { record } of read.records) {
      const usage = usageOf(record);
      const uuid = uuidOf(record);
      if (usage === null || uuid === null) continue;
      const message = record.message as Record<string, unknown> | undefined;
      this.byUuid.set(uuid, { at: str(record.timestamp), usedTokens: requestTokens(usage), messageId: str(message?.id) });
    }
    this.offset = read.nextOffset;
    this.line = read.nextLine;
  }

  get(uuid: string): UsagePoint | undefined {
    return this.byUuid.get(uuid);
  }
}

/** One point per response of the live chain, plus one per compaction (the agent's and ours), oldest first. */
export function timelineOf(live: Pick<LiveContext, 'entries'>, usage: (uuid: string) => UsagePoint | undefined, agent: readonly CompactionEvent[], ours: readonly OurCompactionMark[]): TimelinePoint[] {
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
  for (const event of agent) {
    const who = event.by === 'context-lens' ? 'Context Lens compacted' : `agent compacted (${event.trigger})`;
    const label = `${who}: ${event.preTokens ?? '?'} → ${event.postTokens ?? '?'}${event.focus ? `, "${event.focus}"` : ''}`;
    points.push({ at: event.timestamp, usedTokens: event.postTokens ?? 0, event: { kind: event.by === 'context-lens' ? 'ours' : 'agent', label: label.slice(0, 500) } });
  }
  for (const mark of ours) {
    const label = `Context Lens compacted: ${mark.beforeTokens} → ${mark.afterTokens}${mark.focus ? `, "${mark.focus}"` : ''}`;
    points.push({ at: mark.at, usedTokens: mark.afterTokens, event: { kind: 'ours', label: label.slice(0, 500) } });
  }
  // Stable sort; points without a time go last (∞ − ∞ is NaN, hence `|| 0`).
  const time = (point: TimelinePoint): number => (point.at === null ? Number.POSITIVE_INFINITY : Date.parse(point.at));
  points.sort((a, b) => time(a) - time(b) || 0);
  return points.slice(-TIMELINE_MAX_POINTS);
}
