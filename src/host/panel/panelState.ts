// What the panel shows, built from the host's services: the one place the panel's state is put
// together, so the app only wires services. Free of `vscode` so it is unit-tested under node.
import type { PanelState } from '../../protocol/messages';
import type { ProxyEvent } from '../../proxy/events';
import type { AgentAdapter } from '../../sessions/port';
import type { FillSnapshot, SessionInfo } from '../../sessions/types';
import { hooksOf } from '../connect/connectionLine';
import type { FollowedConnection } from '../connect/followedAgent';
import type { ContextModel } from '../context/ContextModel';
import { agentCompactionsOf, historyOf, timelineMarksOf } from '../history/history';
import type { HistoryStore } from '../history/HistoryStore';
import { hookActivityOf, type HookEvent } from '../history/hookEvents';
import { followedCalls, liveProxyOf } from '../proxy/liveProxySummary';
import { withLiveEdits } from '../proxy/liveTimeline';
import { wireItemsOf } from '../proxy/wireItems';
import type { SessionView } from '../sessions/SessionService';
import { thresholdsOf, type Settings } from '../settings';

/** Everything the panel's state is read from, as the services hold it now. */
export interface PanelSources {
  readonly settings: Settings;
  readonly view: SessionView;
  readonly model: Pick<ContextModel, 'snapshot' | 'loading' | 'cost' | 'timeline'>;
  readonly history: Pick<HistoryStore, 'of'>;
  readonly hookEvents: readonly HookEvent[];
  readonly proxyEvents: readonly ProxyEvent[];
  /** How much of Connect is in the workspace's files, for the agent it was read for (the viewed session's). */
  readonly connection: FollowedConnection | null;
  readonly hasWorkspace: boolean;
}

export function panelStateOf({ settings, view, model, history, hookEvents, proxyEvents, connection, hasWorkspace }: PanelSources): PanelState {
  const fill = view.fill;
  const snapshot = model.snapshot;
  const ours = view.session ? history.of(view.session.path) : [];
  const agent = agentCompactionsOf(snapshot?.live.compactions ?? [], view.compactions);
  const hooks = view.session ? hookActivityOf(view.session.id, agent, hookEvents) : new Map();
  const adapter = view.handle?.adapter ?? null;
  // Tool call ids as the agent's requests carry them: the proxy's events name calls that way.
  const followed = { sessionId: view.session?.id ?? null, items: wireItemsOf(adapter, snapshot?.context.items ?? []) };
  return {
    session: view.session && view.handle ? sessionSummary(view, view.session, view.handle.adapter) : null,
    fill:
      fill && shownFill(fill) ? { usedTokens: fill.usedTokens, windowTokens: fill.windowTokens, source: fill.source, pendingTokens: fill.pendingTokens } : null,
    thresholds: thresholdsOf(settings, fill, adapter?.name ?? 'the agent'),
    breakdown: snapshot?.breakdown ?? [],
    reservedOutputTokens: snapshot?.reservedOutputTokens ?? 0,
    timeline: withLiveEdits(model.timeline(agent, timelineMarksOf(ours, view.session?.id ?? null, agent)), followedCalls(proxyEvents, followed)),
    history: historyOf(agent, ours, hooks, adapter ? { forks: view.forks, adapter } : null),
    empty: emptyReason(view, hasWorkspace),
    diagnostics: view.diagnostics.map((diagnostic) => `${diagnostic.line ? `line ${diagnostic.line}: ` : ''}${diagnostic.message}`),
    hooks: adapter && view.session ? hooksOf(adapter, view.session, connection) : null,
    contextLoading: model.loading,
    liveProxy: liveProxyOf(proxyEvents, followed),
    cost: model.cost,
  };
}

/** The followed session as the panel names it; its handle (set with it) holds its adapter. */
function sessionSummary(view: SessionView, session: SessionInfo, adapter: AgentAdapter): PanelState['session'] {
  return {
    id: session.id,
    title: session.title,
    agent: session.agent,
    agentLabel: { name: adapter.name, pointSetBy: adapter.pointSetBy },
    model: view.fill?.model ?? session.model,
    path: session.path,
    ...(session.location !== undefined ? { location: session.location } : {}),
    live: true,
    ...(session.forkOf ? { forkOf: { title: session.forkOf.title } } : {}),
  };
}

/**
 * Exact from the last response, or after a compaction (the agent's or our fork) the count the
 * compaction recorded, shown as an estimate until the next response. Before any of those there is
 * nothing worth a gauge: the system prompt and tools are not in the transcript.
 */
function shownFill(fill: FillSnapshot): boolean {
  return fill.source === 'usage' || fill.usedTokens > 0;
}

function emptyReason(view: SessionView, hasWorkspace: boolean): PanelState['empty'] {
  if (!view.session) return hasWorkspace ? 'noSession' : 'noWorkspace';
  // No fill at all yet: the follower's first read (from the end of the file) has not landed.
  if (!view.fill) return 'readingSession';
  return shownFill(view.fill) ? null : 'waitingForUsage';
}
