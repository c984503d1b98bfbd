// Which of the live proxy's requests are the followed session's, for every agent and without naming
// one. A request that names its agent session (Claude Code's metadata, Codex's prompt_cache_key) is
// that session's and no other's. One that names none (Gemini CLI, OpenCode) is the session whose
// transcript holds a tool call the request carried — its last tool output's id, or an id the proxy
// edited: ids are minted per call by the model or the agent, so two sessions never share one. A
// request with neither (a first prompt before any tool ran, a side call) joins the conversation the
// proxy put it in when another request of that conversation matched; otherwise it stays unmatched,
// and the panel says so rather than guess. Free of `vscode`.
import type { ProxyEvent } from '../../proxy/events';
import type { ToolResultItem } from './liveFates';

/** What the panel follows: its session's id and its context's items (their tool call ids). */
export interface FollowedContext {
  readonly sessionId: string | null;
  readonly items: readonly ToolResultItem[];
}

export type MatchedBy = 'session' | 'tool-call';

export interface Attribution {
  /** The followed session's conversation calls (not count_tokens or other passthrough calls), oldest first. */
  readonly calls: ProxyEvent[];
  /** How they were known to be its: the session id they name, or a tool call of its transcript; null when none are. */
  readonly matchedBy: MatchedBy | null;
  /** Requests after the last of `calls` that name no session and match none of this one's tool calls. */
  readonly unmatched: ProxyEvent[];
}

const conversational = (event: ProxyEvent): boolean => event.action !== 'passthrough';

/** The tool call ids a request carried: its last tool output's, and those the proxy edited or restored in it. */
function carriedIds(event: ProxyEvent): string[] {
  return [...(event.toolCall ? [event.toolCall] : []), ...event.newEdits.map((edit) => edit.toolUseId), ...event.restored];
}

export function attributeProxyEvents(events: readonly ProxyEvent[], followed: FollowedContext): Attribution {
  const conversation = events.filter(conversational);
  // Nothing followed: every request is shown, as before a session appears.
  if (followed.sessionId === null) return { calls: conversation, matchedBy: null, unmatched: [] };
  const ids = new Set(followed.items.flatMap((item) => (item.toolUseId ? [item.toolUseId] : [])));
  const byId = (event: ProxyEvent): boolean => event.agentSession === null && carriedIds(event).some((id) => ids.has(id));
  // The proxy's conversations (its key of the first message) some request matched by a tool call.
  const joined = new Set(conversation.flatMap((event) => (event.session !== '' && byId(event) ? [event.session] : [])));
  let matchedBy: MatchedBy | null = null;
  let lastMatch = -1;
  const calls: ProxyEvent[] = [];
  conversation.forEach((event, index) => {
    const named = event.agentSession !== null && event.agentSession === followed.sessionId;
    const carried = !named && event.agentSession === null && (byId(event) || (event.session !== '' && joined.has(event.session)));
    if (!named && !carried) return;
    calls.push(event);
    lastMatch = index;
    // The stronger evidence wins: any request naming the session says whose they are.
    if (named) matchedBy = 'session';
    else matchedBy ??= 'tool-call';
  });
  const unmatched = conversation.slice(lastMatch + 1).filter((event) => event.agentSession === null);
  return { calls, matchedBy, unmatched };
}
