// What the panel says about the live proxy, from its event stream (src/proxy/events.ts): the last
// Messages request the agent sent through it, what reached the model after our edits, the exact
// usage the model answered with (cache included), and the session's totals. Free of `vscode`.
import type { LiveProxyState } from '../../protocol/messages';
import { parseProxyEvent, type ProxyEvent } from '../../proxy/events';
import { readTail } from '../events/readTail';

/** Valid events of the file's tail, oldest first; torn or foreign lines are skipped. */
export async function readProxyEventTail(path: string): Promise<ProxyEvent[]> {
  return (await readTail(path)).split('\n').flatMap((line) => {
    const event = line.trim() === '' ? null : parseProxyEvent(line);
    return event ? [event] : [];
  });
}

/** Requests that carried a conversation (not count_tokens or other passthrough calls). */
const isMessagesCall = (event: ProxyEvent): boolean => event.action !== 'passthrough';

/** The panel's view of the newest proxied session, or null before any request went through. */
export function liveProxyOf(events: readonly ProxyEvent[]): LiveProxyState | null {
  const calls = events.filter(isMessagesCall);
  const last = calls.at(-1);
  if (last === undefined) return null;
  // The newest session the proxy saw: an agent restarted through it is a new session.
  const session = calls.filter((event) => event.session === last.session);
  const edits = session.reduce((sum, event) => sum + event.newEdits.length, 0);
  return {
    at: last.time,
    action: last.action,
    reason: last.reason,
    agentTokens: last.agentTokens,
    sentTokens: last.sentTokens,
    usage: last.usage,
    requests: session.length,
    editedRequests: session.filter((event) => event.action === 'edited' || event.action === 'sticky').length,
    edits,
    failedOpen: session.filter((event) => event.action === 'failed-open').length,
  };
}
