// Registering the Context Lens MCP server for Claude Code in a project's `.mcp.json`. Only our entry
// is added or removed (jsonc-parser edits): comments, other servers and formatting stay as they are.
import { applyEdits, modify, parse, printParseErrorCode, type ParseError } from 'jsonc-parser';
import type { Result } from '../types';

export const MCP_FILE = '.mcp.json';

export interface McpServerEntry {
  type: 'stdio';
  command: string;
  args: string[];
}

/** The entry that runs this CLI's `mcp` command with the Node that runs it now. */
export function mcpEntry(node: string, cliPath: string): McpServerEntry {
  return { type: 'stdio', command: node, args: [cliPath, 'mcp'] };
}

/** The whole `.mcp.json` to add by hand, for `--print-config`. */
export function mcpConfig(name: string, entry: McpServerEntry): string {
  return `${JSON.stringify({ mcpServers: { [name]: entry } }, null, 2)}\n`;
}

export interface McpEdit {
  text: string;
  changed: boolean;
}

// No formatting pass: it would re-indent the neighbours of our entry, which are the person's.
const FORMAT = {};

function checked(text: string): Result<unknown, string> {
  const errors: ParseError[] = [];
  const value: unknown = parse(text, errors, { allowTrailingComma: true });
  const first = errors[0];
  if (first) return { ok: false, error: `${MCP_FILE} is not valid JSON (${printParseErrorCode(first.error)} at offset ${first.offset}); not changed` };
  if (value !== undefined && (typeof value !== 'object' || value === null || Array.isArray(value))) return { ok: false, error: `${MCP_FILE} does not hold an object; not changed` };
  return { ok: true, value };
}

/** `text` (null: no file yet) with our server registered under `name`. */
export function registerMcpServer(text: string | null, name: string, entry: McpServerEntry): Result<McpEdit, string> {
  if (text === null) return { ok: true, value: { text: mcpConfig(name, entry), changed: true } };
  const source = text;
  const read = checked(source);
  if (!read.ok) return read;
  const current = (read.value as { mcpServers?: Record<string, unknown> } | undefined)?.mcpServers?.[name];
  if (JSON.stringify(current) === JSON.stringify(entry)) return { ok: true, value: { text: source, changed: false } };
  return { ok: true, value: { text: applyEdits(source, modify(source, ['mcpServers', name], entry, FORMAT)), changed: true } };
}

/** `text` without our server (the rest untouched). */
export function unregisterMcpServer(text: string | null, name: string): Result<McpEdit, string> {
  if (text === null) return { ok: true, value: { text: '', changed: false } };
  const read = checked(text);
  if (!read.ok) return read;
  if ((read.value as { mcpServers?: Record<string, unknown> } | undefined)?.mcpServers?.[name] === undefined) return { ok: true, value: { text, changed: false } };
  return { ok: true, value: { text: applyEdits(text, modify(text, ['mcpServers', name], undefined, FORMAT)), changed: true } };
}
