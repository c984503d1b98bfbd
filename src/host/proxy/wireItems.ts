// The followed context's tool call ids as the agent's requests carry them, which is how the proxy's
// events name calls: most agents send the id their transcript records, Gemini CLI sends it without
// the `<tool>__` prefix it records. The adapter says how (its liveProxy.wireCallId), so the host
// names no agent. Used for the attribution of requests, the live fates and the keep/drop sent to
// the proxy. Free of `vscode`.
import type { AgentAdapter } from '../../sessions/port';
import type { ToolResultItem } from './liveFates';

interface NamedItem extends ToolResultItem {
  readonly toolName?: string;
}

/** One mapping per context read: the panel's state is built on every event, the items change with the transcript. */
const mapped = new WeakMap<readonly NamedItem[], readonly ToolResultItem[]>();

/** `items` with each tool call id as requests carry it; the same array when the agent sends the recorded ids. */
export function wireItemsOf(adapter: Pick<AgentAdapter, 'liveProxy'> | null | undefined, items: readonly NamedItem[]): readonly ToolResultItem[] {
  const wire = adapter?.liveProxy?.wireCallId;
  if (wire === undefined) return items;
  let wired = mapped.get(items);
  if (wired === undefined) {
    wired = items.map((item) => (item.toolUseId === undefined ? item : { id: item.id, kind: item.kind, toolUseId: wire(item.toolUseId, item.toolName) }));
    mapped.set(items, wired);
  }
  return wired;
}
