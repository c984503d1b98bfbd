// What Connect and Disconnect change in one project, before anything is written: the hooks and the
// status line in `.claude/settings.local.json`, and the Context Lens MCP server (the agent's
// compact_context and recall tools) in `.mcp.json`. The command and the VS Code command both show
// this plan as diffs, then save it; one file's trouble never stops the other's change.
import { join } from 'node:path';
import { MCP_SERVER_NAME } from '../../contracts/mcpServer';
import type { CommandPaths, ConnectionPlan, ConnectVerb, FileChange, SavedChange } from '../connection';
import { ok } from '../result';
import type { Result } from '../types';
import { connect, connectionCommands, disconnect, type SettingsEdit } from './connection';
import { connectMcp, disconnectMcp, MCP_FILE, mcpEntry } from './mcpRegistration';
import { readSettings, saveConnected, saveDisconnected, settingsPath, writableSettings, type SettingsFile } from './settingsFile';

type Env = Readonly<Record<string, string | undefined>>;

/** The MCP entry runs the `cli.js` beside the status line, with the Node.js the hooks run. */
export function mcpEntryOf(paths: CommandPaths) {
  return mcpEntry({ node: paths.node, electronRunAsNode: paths.electronRunAsNode ?? false, cli: join(paths.binDir, 'cli.js') });
}

const changeOf = (file: SettingsFile, edit: SettingsEdit): FileChange[] =>
  edit.ok && edit.value.changed ? [{ path: file.path, target: file.target, before: file.text, after: edit.value.text }] : [];

/** Reads both files and computes both edits; fails only when the settings file cannot be read. */
export async function planConnection(verb: ConnectVerb, projectFolder: string, paths: CommandPaths): Promise<Result<ConnectionPlan>> {
  // A link on the way to either file (the file, or `.claude`) refuses the whole edit: the repository points somewhere else.
  for (const path of [settingsPath(projectFolder), join(projectFolder, MCP_FILE)]) {
    const writable = await writableSettings(path);
    if (!writable.ok)
      return ok({ verb, settingsPath: settingsPath(projectFolder), refused: { message: writable.error.message, path }, changes: [], notes: [] });
  }
  const settingsFile = await readSettings(settingsPath(projectFolder));
  if (!settingsFile.ok) return settingsFile;
  const settings = (verb === 'connect' ? connect : disconnect)(settingsFile.value.text, connectionCommands(paths));
  const mcpFile = await readSettings(join(projectFolder, MCP_FILE));
  const mcp = mcpFile.ok
    ? verb === 'connect'
      ? connectMcp(mcpFile.value.text, MCP_SERVER_NAME, mcpEntryOf(paths))
      : disconnectMcp(mcpFile.value.text, MCP_SERVER_NAME)
    : null;
  const notes = [
    ...(settings.ok ? settings.value.notes : []),
    ...(mcp === null
      ? [`${MCP_FILE} could not be read (${mcpFile.ok ? '' : mcpFile.error.message}); the agent's compact_context and recall tools are not ${verb}ed.`]
      : mcp.ok
        ? mcp.value.notes
        : [mcp.error]),
  ];
  const refused = settings.ok ? null : { message: settings.error, path: settingsFile.value.target };
  const changes = refused !== null ? [] : [...changeOf(settingsFile.value, settings), ...(mcp !== null && mcpFile.ok ? changeOf(mcpFile.value, mcp) : [])];
  return ok({ verb, settingsPath: settingsFile.value.path, refused, changes, notes });
}

/** `.mcp.json` alone, as Connect edits it (for `ctxlens mcp --register`). */
export async function planMcpRegistration(projectFolder: string, paths: CommandPaths): Promise<Result<ConnectionPlan>> {
  const writable = await writableSettings(join(projectFolder, MCP_FILE));
  if (!writable.ok)
    return ok({
      verb: 'connect',
      settingsPath: join(projectFolder, MCP_FILE),
      refused: { message: writable.error.message, path: join(projectFolder, MCP_FILE) },
      changes: [],
      notes: [],
    });
  const file = await readSettings(join(projectFolder, MCP_FILE));
  if (!file.ok) return file;
  const edit = connectMcp(file.value.text, MCP_SERVER_NAME, mcpEntryOf(paths));
  return ok({
    verb: 'connect',
    settingsPath: file.value.path,
    refused: edit.ok ? null : { message: edit.error, path: file.value.target },
    changes: changeOf(file.value, edit),
    notes: edit.ok ? edit.value.notes : [],
  });
}

/** Writes every change of the plan (backups first); each file's result on its own. */
export async function saveConnection(plan: ConnectionPlan, env: Env): Promise<SavedChange[]> {
  const save = plan.verb === 'connect' ? saveConnected : saveDisconnected;
  const results: SavedChange[] = [];
  for (const change of plan.changes)
    results.push({ change, saved: await save({ path: change.path, target: change.target, text: change.before }, change.after, env) });
  return results;
}
