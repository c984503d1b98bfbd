// The name Context Lens's MCP server goes by: the server announces it, and Connect registers the
// server under it in the agent's settings (Claude Code prefixes the tools with it:
// `mcp__context-lens__compact_context`). One constant, so the two cannot drift apart.
export const MCP_SERVER_NAME = 'context-lens';
