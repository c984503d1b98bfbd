// Claude Code adapter: what the host, the CLI and the compaction engine use. Everything here is
// plain Node (no vscode) and returns results instead of throwing.
import { fail } from '../result';
import type { Result } from '../types';
import { readFill as readFillDetailed, type FillOptions } from './fill';
import { isSubagentTranscript } from './paths';

export type { FillOptions } from './fill';
export type { LiveContextOptions } from './liveContext';
export type { ListOptions, SessionListing } from './listing';
export type { ConfigDirOptions } from './paths';
export type { FollowerOptions } from './follower';
export type { ContextChange, FollowerEvents, SessionSwitch } from '../types';
export type { ProjectWatcherEvents, ProjectWatcherOptions } from './projectWatcher';
export type { ForkRequest, ForkResult } from './fork';
export type { FillRead } from './fill';

export { listSessions, listProjectSessions, findWorkspaceSession, readSessionInfo } from './listing';
export { readLiveContext } from './liveContext';
export { UsageLog } from './usageLog';
export { forEachPinSource, type PinSource } from './pinSources';
export { SessionFollower } from './follower';
export { ProjectWatcher } from './projectWatcher';
export { writeFork } from './fork';
export { resolveConfigDirs, encodeProjectDirName, expectedProjectDirs } from './paths';
export { forkRequestFromResult } from './engineContext';
export { connectMcp, disconnectMcp, MCP_FILE, mcpConfig, mcpEntry, type McpServerEntry } from './mcpRegistration';
export { resolveWindow, agentAutoCompactTokens, DEFAULT_WINDOW_TOKENS } from './window';
export { connect, connectionCommands, connectionState, disconnect, isEmptySettings, SETTINGS_FILE } from './connection';
export { readSettings, saveConnected, saveDisconnected, settingsBackupFolder, settingsPath } from './settingsFile';
export { changesOf, MCP_SERVER_NAME, mcpPath, planConnection, saveConnection, type ConnectPlan, type ConnectVerb, type FileChange, type SavedFile } from './connectPlan';
export type { Saved, SettingsFile } from './settingsFile';
export type { CommandPaths, ConnectionCommands, ConnectionState, SettingsEdit } from './connection';

/**
 * Fill of a transcript, tail first: reads backwards only to the newest usage record. Subagent
 * transcripts are recognised by their path. The result carries the snapshot, diagnostics and the
 * bytes it had to read.
 */
export async function readFill(path: string, options: FillOptions = {}): ReturnType<typeof readFillDetailed> {
  if (path.trim() === '') return fail('invalid-input', 'No transcript path given');
  return readFillDetailed(path, { ...options, sidechain: options.sidechain ?? isSubagentTranscript(path) });
}

export type { Result };
