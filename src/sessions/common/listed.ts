// What an agent's listing returns (its sessions and what else it found) as the port's list.
import { ok } from '../result';
import type { Result, SessionInfo } from '../types';

export function sessionsOf(listed: Result<{ sessions: SessionInfo[] }>): Result<SessionInfo[]> {
  return listed.ok ? ok(listed.value.sessions) : listed;
}
