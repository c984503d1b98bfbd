// `context-lens mcp`: the MCP server Claude Code starts (stdio) with the compact_context and recall
// tools; `--print-config` shows the .mcp.json entry, `--register [DIR]` writes it into DIR/.mcp.json.
import { join, resolve } from 'node:path';
import { BoundedStdioTransport } from '../mcp/transport';
import { createMcpServer } from '../mcp/server';
import { proxyStateDir } from '../proxy';
import { connectMcp, MCP_SERVER_NAME, mcpConfig, mcpEntry, mcpPath, readSettings, saveConnected } from '../sessions/claude-code';
import { adapterOf } from '../sessions/agents';
import { BUNDLED_PRICES } from '../engine/cost/priceTable';
import { indexPrices } from '../engine/cost/prices';
import { loadPrices } from './cost';
import { EXIT_OK, inputError, parse, type Io } from './io';

export const MCP_USAGE = `context-lens mcp [--print-config | --register [DIR]] [--state-dir DIR]
  An MCP server (stdio) for the agent: compact_context(reason, focus) asks the live proxy to compact
  the next request (the tool itself changes nothing) and says what that costs once, saves per call
  and after how many calls it pays off (estimated from the session's transcript); recall(ref) returns the output a proxy stub
  names. --print-config prints the .mcp.json to add; --register adds it to DIR/.mcp.json (default:
  the current folder), leaving the rest of the file as it is (\`context-lens connect\` does this too,
  beside the hooks; \`disconnect\` takes it out). Claude Code tool names:
  mcp__${MCP_SERVER_NAME}__compact_context, mcp__${MCP_SERVER_NAME}__recall.`;

const OPTIONS = { 'print-config': { type: 'boolean' }, register: { type: 'boolean' }, 'state-dir': { type: 'string' } } as const;

export async function mcpCommand(args: readonly string[], io: Io): Promise<number> {
  const { values, positionals } = parse(args, OPTIONS, 1);
  // Bundled, __dirname is dist/, which holds cli.js.
  const entry = mcpEntry({ node: process.execPath, cli: join(__dirname, 'cli.js') });
  if (values['print-config']) {
    io.out.write(mcpConfig(MCP_SERVER_NAME, entry));
    return EXIT_OK;
  }
  if (values.register) {
    // The same edit Connect makes to .mcp.json: minimal, atomic, the previous content backed up.
    const read = await readSettings(mcpPath(resolve(positionals[0] ?? process.cwd())));
    if (!read.ok) throw inputError(read.error.message);
    const edit = connectMcp(read.value.text, MCP_SERVER_NAME, entry);
    if (!edit.ok) throw inputError(edit.error);
    for (const note of edit.notes) io.err.write(`${note}\n`);
    if (!edit.changed) {
      io.out.write(`Already registered in ${read.value.path}\n`);
      return EXIT_OK;
    }
    const saved = await saveConnected(read.value, edit.text, io.env);
    if (!saved.ok) throw inputError(saved.error.message);
    io.out.write(`Registered ${MCP_SERVER_NAME} in ${read.value.path}\n`);
    return EXIT_OK;
  }
  // compact_context says whether it pays at CONTEXT_LENS_PRICES' prices; a broken file must not keep the tools away.
  const prices = await loadPrices(undefined, io).catch((error: unknown) => {
    io.err.write(`context-lens mcp: ${error instanceof Error ? error.message : String(error)}; bundled prices used\n`);
    return indexPrices(BUNDLED_PRICES);
  });
  const estimate = { adapter: adapterOf('claude-code'), where: { env: io.env }, workspace: process.cwd(), prices };
  const server = createMcpServer(values['state-dir'] ?? proxyStateDir(io.env), undefined, estimate);
  // The agent ends the session by closing our stdin.
  const ended = new Promise<void>((done) => process.stdin.once('end', done));
  await server.connect(new BoundedStdioTransport());
  await ended;
  await server.close();
  return EXIT_OK;
}
