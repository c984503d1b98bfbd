// The live fate of each tool result of the followed context: what the proxy sent in its place, from
// the edits its event stream reports (by tool_use id, the same in the transcript and in requests).
// An edit holds until the person takes it back (a keep, or a drop cleared). Free of `vscode`.
import type { LiveFate } from '../../protocol/messages';
import type { ProxyEdit, ProxyEvent } from '../../proxy/events';

/** The part of an engine item that names a tool result. */
export interface ToolResultItem {
  readonly id: number;
  readonly kind: string;
  readonly toolUseId?: string;
}

/** The proxy's tiers in the map's words. */
export const LIVE_FATE_OF_TIER: Readonly<Record<ProxyEdit['tier'], LiveFate['fate']>> = {
  supersede: 'stubbed',
  dedupe: 'stubbed',
  'age-clear': 'cleared',
  truncate: 'truncated',
  choice: 'dropped',
};

/** Edits in force after `events` (oldest first), by tool_use id. */
export function editsInForce(events: readonly ProxyEvent[]): Map<string, ProxyEdit> {
  const edits = new Map<string, ProxyEdit>();
  for (const event of events) {
    for (const edit of event.newEdits) edits.set(edit.toolUseId, edit);
    for (const id of event.restored) edits.delete(id);
  }
  return edits;
}

/** One live fate per tool result of `items` the proxy changed, in item order. */
export function liveFatesOf(events: readonly ProxyEvent[], items: readonly ToolResultItem[]): LiveFate[] {
  const edits = editsInForce(events);
  if (edits.size === 0) return [];
  return items.flatMap((item) => {
    const edit = item.kind === 'tool_result' && item.toolUseId !== undefined ? edits.get(item.toolUseId) : undefined;
    return edit ? [{ id: item.id, fate: LIVE_FATE_OF_TIER[edit.tier], tokensSent: edit.tokensAfter, ref: edit.ref }] : [];
  });
}
