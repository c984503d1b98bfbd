// `ctxlens mcp`: the MCP server Claude Code starts (stdio) with the compact_context and recall
// tools; `--print-config` shows the .mcp.json entry, `--register [DIR]` writes it into DIR/.mcp.json.
import { resolve } from 'node:path';
import { MCP_SERVER_NAME } from '../contracts/mcpServer';
import { BoundedStdioTransport } from '../mcp/transport';
import { createMcpServer } from '../mcp/server';
import { proxyStateDir } from '../proxy';
import type { AgentConnection, McpRegistration } from '../sessions/connection';
import { BUNDLED_PRICES, indexPrices } from '../pricing';
import { loadPrices } from './cost';
import { connectableOption, thisCli } from './connect';
import { AGENT_OPTION, EXIT_OK, inputError, parse, usageError, type Io } from './io';

export const MCP_USAGE = `ctxlens mcp [--print-config | --register [DIR]] [--agent ID] [--state-dir DIR]
  An MCP server (stdio) for the agent: compact_context(reason, focus) asks the live proxy to compact
  the next request (the tool itself changes nothing) and says what that costs once, saves per call
  and after how many calls it pays off (estimated from the session's transcript); recall(ref) returns the output a proxy stub
  names. --print-config prints the .mcp.json to add; --register adds it to DIR/.mcp.json (default:
  the current folder), leaving the rest of the file as it is (\`ctxlens connect\` does this too,
  beside the hooks; \`disconnect\` takes it out); --agent: whose configuration (default: the only
  agent that can be connected). Claude Code tool names:
  mcp__${MCP_SERVER_NAME}__compact_context, mcp__${MCP_SERVER_NAME}__recall.`;

const OPTIONS = { 'print-config': { type: 'boolean' }, register: { type: 'boolean' }, 'state-dir': { type: 'string' }, ...AGENT_OPTION } as const;

/** The connection of the agent `--agent` names, and how it registers our server. */
function registrationOf(agent: string | undefined): { connection: AgentConnection; registration: McpRegistration } {
  const { adapter, connection } = connectableOption(agent);
  if (connection.mcp === undefined) throw usageError(`${adapter.name} takes no MCP server from Context Lens`);
  return { connection, registration: connection.mcp };
}

export async function mcpCommand(args: readonly string[], io: Io): Promise<number> {
  const { values, positionals } = parse(args, OPTIONS, 1);
  if (values['print-config']) {
    io.out.write(registrationOf(values.agent).registration.config(thisCli()));
    return EXIT_OK;
  }
  if (values.register) {
    // The same edit Connect makes to the server's file: minimal, atomic, the previous content backed up.
    const { connection, registration } = registrationOf(values.agent);
    const planned = await registration.plan(resolve(positionals[0] ?? process.cwd()), thisCli());
    if (!planned.ok) throw inputError(planned.error.message);
    const plan = planned.value;
    if (plan.refused !== null) throw inputError(plan.refused.message);
    for (const note of plan.notes) io.err.write(`${note}\n`);
    if (plan.changes.length === 0) {
      io.out.write(`Already registered in ${plan.settingsPath}\n`);
      return EXIT_OK;
    }
    for (const { saved } of await connection.save(plan, io.env)) if (!saved.ok) throw inputError(saved.error.message);
    io.out.write(`Registered ${registration.serverName} in ${plan.settingsPath}\n`);
    return EXIT_OK;
  }
  // compact_context says whether it pays at CONTEXT_LENS_PRICES' prices; a broken file must not keep the tools away.
  const prices = await loadPrices(undefined, io).catch((error: unknown) => {
    io.err.write(`ctxlens mcp: ${error instanceof Error ? error.message : String(error)}; bundled prices used\n`);
    return indexPrices(BUNDLED_PRICES);
  });
  // The agent that starts this server (the one Connect registers it with) wrote the session.
  const estimate = { adapter: connectableOption(values.agent).adapter, where: { env: io.env }, workspace: process.cwd(), prices };
  const server = createMcpServer(values['state-dir'] ?? proxyStateDir(io.env), undefined, estimate);
  // The agent ends the session by closing our stdin.
  const ended = new Promise<void>((done) => process.stdin.once('end', done));
  await server.connect(new BoundedStdioTransport());
  await ended;
  await server.close();
  return EXIT_OK;
}
