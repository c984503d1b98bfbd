// Registering the Context Lens MCP server (compact_context, recall) for Claude Code: an entry in the
// project's `.mcp.json`, which Connect adds beside the hooks and Disconnect takes out again. Pure
// text in, text out, with the same minimal edits as the settings (jsoncEdit.ts): comments, other
// servers and formatting stay byte for byte, and Disconnect after Connect gives back the same text.
// Our entry is recognised by its shape (a Node.js running a `cli.js` with `mcp`), so a Node.js that
// moved keeps it ours, and a `context-lens` server the person wrote some other way stays theirs.
import type { SettingsEdit } from './connection';
import {
  append,
  applyEdits,
  layoutOf,
  memberOf,
  parseObject,
  pretty,
  properties,
  remove,
  replaceValue,
  valueOf,
  getNodeValue,
  isPretty,
  type Node,
} from '../common/jsoncEdit';

export const MCP_FILE = '.mcp.json';

export interface McpServerEntry {
  type: 'stdio';
  command: string;
  args: string[];
  /** VS Code's own runtime stands in for Node where none is installed. */
  env?: { ELECTRON_RUN_AS_NODE: '1' };
}

/** The entry that runs `cli` (our CLI bundle) with `mcp`; `node` as the hooks run it. */
export function mcpEntry(options: { node: string; electronRunAsNode?: boolean; cli: string }): McpServerEntry {
  return { type: 'stdio', command: options.node, args: [options.cli, 'mcp'], ...(options.electronRunAsNode ? { env: { ELECTRON_RUN_AS_NODE: '1' } } : {}) };
}

/** The whole `.mcp.json` to add by hand, for `--print-config`. */
export function mcpConfig(name: string, entry: McpServerEntry): string {
  return `${JSON.stringify({ mcpServers: { [name]: entry } }, null, 2)}\n`;
}

/** Ours: a command and exactly `[<…>/cli.js, "mcp"]` as its arguments. */
function isOurs(node: Node | undefined): boolean {
  if (node?.type !== 'object') return false;
  const value = getNodeValue(node) as { command?: unknown; args?: unknown };
  const args = value.args;
  return (
    typeof value.command === 'string' &&
    Array.isArray(args) &&
    args.length === 2 &&
    typeof args[0] === 'string' &&
    /(^|[\\/])cli\.js$/.test(args[0]) &&
    args[1] === 'mcp'
  );
}

function refused(reason: string): SettingsEdit {
  return { ok: false, error: `${MCP_FILE} was left alone: ${reason}. Fix or remove it, then connect again.` };
}

/** Adds our server under `name`, or points our entry at `entry`; a server of the person's under that name stays. */
export function connectMcp(text: string | null, name: string, entry: McpServerEntry): SettingsEdit {
  const parsed = parseObject(text ?? '');
  if (!parsed.ok) return refused(parsed.error);
  const root = parsed.value;
  if (text === null || root === undefined)
    return { ok: true, value: { text: `${pretty({ mcpServers: { [name]: entry } }, '', { eol: '\n', unit: '  ' })}\n`, changed: true, notes: [] } };
  if (properties(root, 'mcpServers').length > 1) return refused('"mcpServers" appears more than once (Claude Code reads only the last)');
  const servers = valueOf(root, 'mcpServers');
  if (servers !== undefined && servers.type !== 'object') return refused('"mcpServers" is not an object');
  if (properties(servers, name).length > 1) return refused(`"${name}" appears more than once in "mcpServers"`);
  const layout = layoutOf(text, root);
  const current = valueOf(servers, name);
  if (current !== undefined && !isOurs(current))
    return { ok: true, value: { text, changed: false, notes: [`Your own "${name}" server in ${MCP_FILE} stays; Context Lens does not replace it.`] } };
  const edit =
    servers === undefined
      ? append(text, root, { [name]: entry }, layout, 'mcpServers')
      : current === undefined
        ? append(text, servers, entry, layout, name)
        : JSON.stringify(getNodeValue(current)) === JSON.stringify(entry)
          ? null
          : replaceValue(text, current, entry, layout);
  if (edit === null) return { ok: true, value: { text, changed: false, notes: [] } };
  const next = applyEdits(text, [edit]);
  return { ok: true, value: { text: next, changed: true, notes: [] } };
}

/** Removes our entry; an `mcpServers` object Connect created whole goes with it, one the person had stays. */
export function disconnectMcp(text: string | null, name: string): SettingsEdit {
  const parsed = parseObject(text ?? '');
  if (!parsed.ok) return { ok: false, error: `${MCP_FILE} was left alone: ${parsed.error}.` };
  if (text === null || parsed.value === undefined) return { ok: true, value: { text: text ?? '', changed: false, notes: [] } };
  const servers = valueOf(parsed.value, 'mcpServers');
  const current = valueOf(servers, name);
  if (servers === undefined || !isOurs(current)) return { ok: true, value: { text, changed: false, notes: [] } };
  const layout = layoutOf(text, parsed.value);
  const whole = (servers.children ?? []).length === 1 && isPretty(text, servers, layout);
  const next = applyEdits(text, remove(text, whole ? memberOf(servers) : memberOf(current as Node), layout));
  return { ok: true, value: { text: next, changed: next !== text, notes: [] } };
}
