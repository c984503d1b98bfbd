// What the panel says about the live proxy, from its event stream (src/proxy/events.ts): the last
// Messages request the agent sent through it, what reached the model after our edits, the exact
// usage the model answered with (cache included), the session's totals, and the live fate of each
// item of the followed context. Free of `vscode`.
import type { LiveProxyState } from '../../protocol/messages';
import { parseProxyEvent, type ProxyEvent } from '../../proxy/events';
import { readTail } from '../events/readTail';
import { liveFatesOf, type ToolResultItem } from './liveFates';

/** Valid events of the file's tail, oldest first; torn or foreign lines are skipped. */
export async function readProxyEventTail(path: string): Promise<ProxyEvent[]> {
  return (await readTail(path)).split('\n').flatMap((line) => {
    const event = line.trim() === '' ? null : parseProxyEvent(line);
    return event ? [event] : [];
  });
}

/** The session the panel follows: its agent's id and its context's items (for their live fates). */
export interface FollowedContext {
  readonly sessionId: string | null;
  readonly items: readonly ToolResultItem[];
}

const NOTHING_FOLLOWED: FollowedContext = { sessionId: null, items: [] };

/**
 * The conversation calls (not count_tokens or other passthrough calls) of the followed session:
 * those naming it, and those the proxy did not read (it names no session then). Another agent
 * session going through the same proxy is left out.
 */
export function followedCalls(events: readonly ProxyEvent[], sessionId: string | null): ProxyEvent[] {
  return events.filter((event) => event.action !== 'passthrough' && (event.agentSession === null || sessionId === null || event.agentSession === sessionId));
}

/** The panel's view of the followed session through the proxy, or null before any request went through. */
export function liveProxyOf(events: readonly ProxyEvent[], followed: FollowedContext = NOTHING_FOLLOWED): LiveProxyState | null {
  const calls = followedCalls(events, followed.sessionId);
  const last = calls.at(-1);
  if (last === undefined) return null;
  // The newest conversation the proxy saw: an agent restarted through it is a new one.
  const session = calls.filter((event) => event.session === last.session);
  return {
    at: last.time,
    action: last.action,
    reason: last.reason,
    agentTokens: last.agentTokens,
    sentTokens: last.sentTokens,
    usage: last.usage,
    requests: session.length,
    editedRequests: session.filter((event) => event.action === 'edited' || event.action === 'sticky').length,
    edits: session.reduce((sum, event) => sum + event.newEdits.length, 0),
    failedOpen: session.filter((event) => event.action === 'failed-open').length,
    savedTokens: session.reduce((sum, event) => sum + Math.max(0, event.agentTokens - event.sentTokens), 0),
    items: liveFatesOf(calls, followed.items),
  };
}
