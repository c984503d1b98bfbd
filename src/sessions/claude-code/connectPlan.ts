// What Connect and Disconnect change in one project, before anything is written: the hooks and the
// status line in `.claude/settings.local.json`, and the Context Lens MCP server (the agent's
// compact_context and recall tools) in `.mcp.json`. The command and the VS Code command both show
// this plan as diffs, then save it; one file's trouble never stops the other's change.
import { join } from 'node:path';
import type { Result } from '../types';
import { connect, disconnect, type ConnectionCommands, type SettingsEdit } from './connection';
import { connectMcp, disconnectMcp, MCP_FILE, type McpServerEntry } from './mcpRegistration';
import { readSettings, saveConnected, saveDisconnected, settingsPath, type Saved, type SettingsFile } from './settingsFile';

type Env = Readonly<Record<string, string | undefined>>;

export type ConnectVerb = 'connect' | 'disconnect';

export interface FileChange {
  readonly file: SettingsFile;
  readonly edit: SettingsEdit;
}

export interface ConnectPlan {
  readonly verb: ConnectVerb;
  readonly settings: FileChange;
  /** Null when `.mcp.json` could not be read (said in `notes`). */
  readonly mcp: FileChange | null;
  /** Worth telling before the person agrees (a status line that stays, a file left alone). */
  readonly notes: readonly string[];
}

/** The server name Claude Code prefixes the tools with: `mcp__context-lens__compact_context`. */
export const MCP_SERVER_NAME = 'context-lens';

export function mcpPath(projectFolder: string): string {
  return join(projectFolder, MCP_FILE);
}

/** Reads both files and computes both edits; fails only when the settings file cannot be read. */
export async function planConnection(verb: ConnectVerb, projectFolder: string, commands: ConnectionCommands, entry: McpServerEntry): Promise<Result<ConnectPlan>> {
  const settingsFile = await readSettings(settingsPath(projectFolder));
  if (!settingsFile.ok) return settingsFile;
  const settings = { file: settingsFile.value, edit: (verb === 'connect' ? connect : disconnect)(settingsFile.value.text, commands) };
  const mcpFile = await readSettings(mcpPath(projectFolder));
  const mcp = mcpFile.ok ? { file: mcpFile.value, edit: verb === 'connect' ? connectMcp(mcpFile.value.text, MCP_SERVER_NAME, entry) : disconnectMcp(mcpFile.value.text, MCP_SERVER_NAME) } : null;
  const notes = [...(settings.edit.ok ? settings.edit.notes : []), ...(mcp === null ? [`${MCP_FILE} could not be read (${mcpFile.ok ? '' : mcpFile.error.message}); the agent's compact_context and recall tools are not ${verb}ed.`] : mcp.edit.ok ? mcp.edit.notes : [`${mcp.edit.error}`])];
  return { ok: true, value: { verb, settings, mcp, notes } };
}

/** The changes to write: each file whose edit worked and changes something. */
export function changesOf(plan: ConnectPlan): { file: SettingsFile; text: string }[] {
  return [plan.settings, plan.mcp].flatMap((change) => (change !== null && change.edit.ok && change.edit.changed ? [{ file: change.file, text: change.edit.text }] : []));
}

export interface SavedFile {
  readonly file: SettingsFile;
  readonly saved: Result<Saved>;
}

/** Writes every change of the plan (backups first); each file's result on its own. */
export async function saveConnection(plan: ConnectPlan, env: Env): Promise<SavedFile[]> {
  const save = plan.verb === 'connect' ? saveConnected : saveDisconnected;
  const results: SavedFile[] = [];
  for (const { file, text } of changesOf(plan)) results.push({ file, saved: await save(file, text, env) });
  return results;
}
