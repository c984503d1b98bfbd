// Which agent the host's Connect follows: the viewed session's, when its adapter can be connected;
// with no session (or one whose agent cannot be), none, and the commands then ask which. Free of
// `vscode` so it is unit-tested; the host names no agent, it only matches the registry's ids.
import type { ConnectionState } from '../../sessions/connection';
import type { Connectable } from '../../sessions/connectable';
import type { AgentAdapter } from '../../sessions/port';

/** The connection state the panel shows, with the agent it was read for (a switch of session must not show the previous agent's). */
export interface FollowedConnection {
  readonly agentId: string;
  readonly state: ConnectionState;
}

/** The connectable entry of the viewed session's agent, or undefined when there is none or it cannot be connected. */
export function followedAgent(adapter: AgentAdapter | null | undefined, agents: readonly Connectable[]): Connectable | undefined {
  return adapter ? agents.find((agent) => agent.adapter.id === adapter.id) : undefined;
}

/**
 * The agent a Connect or Disconnect acts on without asking: the followed one, else the only one
 * there is; null means the person picks among `agents`.
 */
export function agentWithoutAsking(followed: Connectable | undefined, agents: readonly Connectable[]): Connectable | null {
  return followed ?? (agents.length === 1 ? (agents[0] ?? null) : null);
}
