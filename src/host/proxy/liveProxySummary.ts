// What the panel says about the live proxy, from its event stream (src/proxy/events.ts): the last
// Messages request the agent sent through it, what reached the model after our edits, the exact
// usage the model answered with (cache included), the session's totals, and the live fate of each
// item of the followed context. Free of `vscode`.
import type { LiveProxyState } from '../../protocol/messages';
import { parseProxyEvent, type ProxyEvent } from '../../proxy/events';
import { readTail } from '../events/readTail';
import { liveFatesOf } from './liveFates';
import { attributeProxyEvents, type FollowedContext } from './proxyAttribution';

export type { FollowedContext } from './proxyAttribution';

/** The line's figures when no request matched the followed session (only `unmatched` says something). */
const NO_CALLS: Omit<LiveProxyState, 'at'> = {
  action: 'unchanged',
  reason: null,
  agentTokens: 0,
  sentTokens: 0,
  usage: null,
  requests: 0,
  editedRequests: 0,
  edits: 0,
  failedOpen: 0,
  savedTokens: 0,
  items: [],
};

/** Valid events of the file's tail, oldest first; torn or foreign lines are skipped. */
export async function readProxyEventTail(path: string): Promise<ProxyEvent[]> {
  return (await readTail(path)).split('\n').flatMap((line) => {
    const event = line.trim() === '' ? null : parseProxyEvent(line);
    return event ? [event] : [];
  });
}

const NOTHING_FOLLOWED: FollowedContext = { sessionId: null, items: [] };

/** The followed session's conversation calls (see proxyAttribution.ts). */
export function followedCalls(events: readonly ProxyEvent[], followed: FollowedContext): ProxyEvent[] {
  return attributeProxyEvents(events, followed).calls;
}

/** The panel's view of the followed session through the proxy, or null before any request went through. */
export function liveProxyOf(events: readonly ProxyEvent[], followed: FollowedContext = NOTHING_FOLLOWED): LiveProxyState | null {
  const { calls, matchedBy, unmatched } = attributeProxyEvents(events, followed);
  const noMatch = unmatched.length > 0 ? { requests: unmatched.length, at: unmatched.at(-1)!.time } : null;
  const last = calls.at(-1);
  if (last === undefined) return noMatch ? { ...NO_CALLS, at: noMatch.at, matchedBy: null, unmatched: noMatch } : null;
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
    matchedBy,
    unmatched: noMatch,
  };
}
