// Opening a session handle: the adapter's own when it has one, else the default on its port. Every
// caller (host, CLI, MCP server) opens sessions here.
import type { AgentAdapter, ReadOptions, SessionHandle } from '../port';
import type { SessionInfo } from '../types';
import { DefaultSessionHandle } from './defaultHandle';

export function openSession(adapter: AgentAdapter, session: SessionInfo, options: ReadOptions = {}): SessionHandle {
  return adapter.open?.(session, options) ?? new DefaultSessionHandle(adapter, session, options);
}
