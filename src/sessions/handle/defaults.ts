// What the port asks of every adapter alike, done once here for an adapter that leaves it out.
import type { AgentAdapter, SessionLocations } from '../port';
import type { Result, SessionInfo } from '../types';

/** The workspace's most recently written main session: the adapter's own answer, else the newest main session its listing gives. */
export async function findWorkspaceSession(adapter: AgentAdapter, workspacePath: string, where: SessionLocations): Promise<Result<SessionInfo | null>> {
  if (adapter.findWorkspaceSession !== undefined) return adapter.findWorkspaceSession(workspacePath, where);
  const listed = await adapter.listSessions(where, workspacePath);
  return listed.ok ? { ok: true, value: listed.value.find((session) => !session.isSidechain) ?? null } : listed;
}
