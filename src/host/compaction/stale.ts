// Whether the agent wrote more to a session since a preview read it. Apply writes the fork from the
// preview's snapshot, so the later turns would silently be missing from it. Free of `vscode`.
import type { AgentAdapter } from '../../sessions/port';
import type { LiveContext, Result } from '../../sessions/types';

/** The newest transcript record in the live context: the agent's next turn chains after it. */
export function lastRecordOf(live: LiveContext): string | null {
  return live.entries.at(-1)?.uuids.at(-1) ?? null;
}

/** Reads the session again now (not the panel's snapshot, which trails the file by a debounce). */
export async function sessionMovedOn(adapter: AgentAdapter, live: LiveContext): Promise<Result<boolean>> {
  const now = await adapter.readLiveContext(live.session);
  return now.ok ? { ok: true, value: lastRecordOf(now.value) !== lastRecordOf(live) } : now;
}
