// The panel's line under the toolbar about the viewed session's agent and Connect: its connection
// state, where Connect writes, what it injects, and what the agent itself still needs (Codex trusts
// a folder's hooks only once the person says so). Free of `vscode` so it is unit-tested under node.
import type { AgentHooks } from '../../protocol/messages';
import type { AgentAdapter } from '../../sessions/port';
import type { SessionInfo } from '../../sessions/types';
import type { FollowedConnection } from './followedAgent';

/** The line for `adapter`'s session, once `connection` was read for that agent (never the previous agent's); null until then. */
export function hooksOf(adapter: AgentAdapter, session: SessionInfo, connection: FollowedConnection | null): AgentHooks | null {
  // The command that resumes a fork (the bare binary would start a new session); its id is known once Apply writes it.
  if (adapter.connection === undefined) return { agent: adapter.name, state: 'none', where: adapter.resumeCommand({ ...session, id: '<fork id>' }) };
  if (connection === null || connection.agentId !== adapter.id) return null;
  const { watchFiles, describe, caveat, installs } = adapter.connection;
  return {
    agent: adapter.name,
    ...(installs !== undefined ? { installs } : {}),
    state: connection.state,
    where: watchFiles.join(' and '),
    detail: describe.connect,
    // Worth saying only once the files hold the connection: before, Connect's dialog says it.
    caveat: connection.state === 'disconnected' ? null : (caveat ?? null),
  };
}
