// What the port asks of every adapter alike, done once here for an adapter that leaves it out.
import type { AgentAdapter, SessionLocations } from '../port';
import type { Result, SessionInfo } from '../types';

/** Forks Context Lens wrote of `session`, oldest first: the sessions beside it that name it as their source. */
export async function listForks(adapter: AgentAdapter, session: SessionInfo): Promise<SessionInfo[]> {
  const beside = await adapter.sessionsBeside(session);
  if (!beside.ok) return [];
  return beside.value
    .filter((other) => other.forkOf?.sessionId === session.id && other.path !== session.path)
    .sort((a, b) => a.lastActivityMs - b.lastActivityMs);
}

/** The workspace's most recently written main session: the adapter's own answer, else the newest main session its listing gives. */
export async function findWorkspaceSession(adapter: AgentAdapter, workspacePath: string, where: SessionLocations): Promise<Result<SessionInfo | null>> {
  if (adapter.findWorkspaceSession !== undefined) return adapter.findWorkspaceSession(workspacePath, where);
  const listed = await adapter.listSessions(where, workspacePath);
  return listed.ok ? { ok: true, value: listed.value.find((session) => !session.isSidechain) ?? null } : listed;
}
