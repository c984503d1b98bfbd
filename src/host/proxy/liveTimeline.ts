// The timeline's marks for the live proxy: a request that carried new edits (or undid some the
// person took back) marks the call it made — the first call the transcript recorded after it — so the
// bar of that call is what reached the model after the edits. A request whose call is not recorded
// yet gets a point of its own. Free of `vscode`.
import type { TimelinePoint } from '../../protocol/messages';
import type { ProxyEvent } from '../../proxy/events';
import { TIMELINE_MAX_POINTS } from '../context/timeline';
import { LIVE_FATE_OF_TIER } from './liveFates';
import { thousands as exactTokens } from '../../base/format';

/** "2 stubbed, 1 cleared, 1 restored (sent 95,120 of the agent's 120,400 tokens); costs $0.41 once, …: pays off after 4 calls" */
export function liveEditLabel(event: ProxyEvent): string {
  const counts = new Map<string, number>();
  for (const edit of event.newEdits) counts.set(LIVE_FATE_OF_TIER[edit.tier], (counts.get(LIVE_FATE_OF_TIER[edit.tier]) ?? 0) + 1);
  if (event.restored.length > 0) counts.set('restored', event.restored.length);
  const what = [...counts].map(([fate, count]) => `${count} ${fate}`).join(', ');
  const pays = event.breakEven ? `; ${event.breakEven.sentence}` : '';
  return `${what} (sent ${exactTokens(event.sentTokens)} of the agent's ${exactTokens(event.agentTokens)} tokens)${pays}`.slice(0, 500);
}

const timeOf = (at: string | null): number => (at === null ? Number.POSITIVE_INFINITY : Date.parse(at));

/** `points` (oldest first) with the live edits of `calls` marked. */
export function withLiveEdits(points: readonly TimelinePoint[], calls: readonly ProxyEvent[]): TimelinePoint[] {
  const marks = calls.filter((event) => event.newEdits.length > 0 || event.restored.length > 0);
  if (marks.length === 0) return [...points];
  const out = [...points];
  const extra: TimelinePoint[] = [];
  let from = 0;
  for (const mark of marks) {
    const at = Date.parse(mark.time);
    const index = out.findIndex((point, position) => position >= from && point.event === null && timeOf(point.at) >= at && point.at !== null);
    const event = { kind: 'live' as const, label: liveEditLabel(mark) };
    if (index === -1) {
      const usage = mark.usage;
      extra.push({ at: mark.time, usedTokens: usage ? usage.inputTokens + usage.cacheReadTokens + usage.cacheCreationTokens : mark.sentTokens, event });
      continue;
    }
    out[index] = { ...out[index]!, event };
    from = index + 1;
  }
  if (extra.length === 0) return out;
  // Stable: the marked calls keep their order, a point of its own goes where its time puts it.
  return [...out, ...extra].sort((a, b) => timeOf(a.at) - timeOf(b.at) || 0).slice(-TIMELINE_MAX_POINTS);
}
