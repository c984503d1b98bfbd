// Claude Code's connection behind the port (sessions/connection.ts): Connect writes the PreCompact
// and SessionStart hooks and the status line into `.claude/settings.local.json` and our MCP server
// into `.mcp.json` (connectPlan.ts); the hooks read the transcript for the person's words.
import { MCP_SERVER_NAME } from '../../contracts/mcpServer';
import type { AgentConnection } from '../connection';
import { ok } from '../result';
import { connectionCommands, connectionState, SETTINGS_FILE } from './connection';
import { mcpEntryOf, planConnection, planMcpRegistration, saveConnection } from './connectPlan';
import { mcpConfig } from './mcpRegistration';
import { forEachPinSource } from './pinSources';
import { readSettings, settingsPath } from './settingsFile';
import { DEFAULT_WINDOW_TOKENS } from './window';

export const claudeCodeConnection: AgentConnection = {
  byDefault: true,
  watchFiles: [SETTINGS_FILE.join('/')],
  describe: {
    connect:
      'Adds a PreCompact hook (your prompts word for word, your rules, requests and open loops, and the standing focus go into every compaction), a SessionStart hook (re-injects them after a compaction) and, if you have none, the Context Lens status line to .claude/settings.local.json, ' +
      'and the Context Lens MCP server (the agent can ask for a compaction at a task boundary and recall what a live-proxy stub replaced) to .mcp.json. Claude Code asks once before it starts a project MCP server.',
    disconnect:
      'Removes exactly the hooks and status line that Connect added to .claude/settings.local.json and its MCP server from .mcp.json; everything else stays.',
  },
  hooks: { kinds: ['pre-compact', 'session-start'], defaultWindowTokens: DEFAULT_WINDOW_TOKENS, forEachPinSource },
  mcp: {
    serverName: MCP_SERVER_NAME,
    config: (paths) => mcpConfig(MCP_SERVER_NAME, mcpEntryOf(paths)),
    plan: planMcpRegistration,
  },
  plan: planConnection,
  save: saveConnection,
  state: async (folder, paths) => {
    const read = await readSettings(settingsPath(folder));
    return read.ok ? ok(connectionState(read.value.text, connectionCommands(paths))) : read;
  },
};
