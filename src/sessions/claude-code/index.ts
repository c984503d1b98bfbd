// Claude Code adapter: one object behind the port (port.ts), which the registry (../agents.ts)
// lists; everything else in this folder is its own. Hooks, status line and MCP registration are
// reached through `claudeCodeAdapter.connection` (../connection.ts) and ../statusLine.ts.
export { claudeCodeAdapter } from './adapter';
