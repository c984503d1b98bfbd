// Claude Code behind the adapter port (port.ts): transcripts under the config folders' projects/,
// followed with the project folder watched for newer sessions, forks written beside their source.
import { homesOf, type AgentAdapter, type ForkInput, type SessionLocations, type SessionWaiter, type WrittenFork } from '../port';
import { sessionsOf } from '../common/listed';
import { ok } from '../result';
import type { Diagnostic, Result, SessionInfo } from '../types';
import { claudeCodeConnection } from './connectionPort';
import { forkRequestFromResult } from './engineContext';
import { writeFork } from './fork';
import { SessionFollower } from './follower';
import { listProjectSessions, listSessions, readSessionInfo } from './listing';
import { readLiveContext } from './liveContext';
import { expectedProjectDirs, type ConfigDirOptions } from './paths';
import { ProjectWatcher } from './projectWatcher';
import { UsageLog } from './usageLog';
import { isClaudeCodeTranscript } from './recognise';
import { readSessionCalls } from './sessionCalls';
import { CLAUDE_CODE_TOOLS } from './tools';
import { claudeCodeLiveProxy } from './liveProxy';
import { reservedOutputTokens } from './window';

async function writeForkFromResult(input: ForkInput): Promise<Result<WrittenFork>> {
  const request = await forkRequestFromResult(input);
  return request.ok ? writeFork(request.value) : request;
}

/** Forks are written in their source's project folder (see fork.ts), a subagent's too, as main sessions. */
async function sessionsBeside(session: SessionInfo): Promise<Result<SessionInfo[]>> {
  return ok((await listProjectSessions(session.projectDir, false)).sessions);
}

/** The project folder of the workspace in each config folder, watched until `claude` writes there. */
async function waitForSession(
  workspacePath: string,
  where: SessionLocations,
  found: (session: SessionInfo) => void,
  report: (diagnostic: Diagnostic) => void,
): Promise<SessionWaiter> {
  const projectDirs = await expectedProjectDirs(workspacePath, configDirs(where));
  const watchers = projectDirs.map((projectDir) => {
    const watcher = new ProjectWatcher(projectDir);
    watcher.on('sessionSwitched', ({ session }) => found(session));
    watcher.on('diagnostic', report);
    return watcher;
  });
  await Promise.all(watchers.map((watcher) => watcher.start()));
  return { where: projectDirs, dispose: () => watchers.forEach((watcher) => watcher.dispose()) };
}

const configDirs = (where: SessionLocations): ConfigDirOptions => ({ configDirs: homesOf(where, 'claude-code'), ...(where.env ? { env: where.env } : {}) });

/** This agent's id among the agents Context Lens reads (types.ts). */
declare module '../types' {
  interface KnownAgents {
    'claude-code': true;
  }
}

export const claudeCodeAdapter: AgentAdapter = {
  id: 'claude-code',
  liveProxy: claudeCodeLiveProxy,
  name: 'Claude Code',
  pointSetBy: 'the CLAUDE_AUTOCOMPACT_PCT_OVERRIDE environment variable (or contextLens.window.overrideTokens for the window size)',
  home: {
    option: 'config-dir',
    env: 'CLAUDE_CONFIG_DIR',
    otherEnv: ['CLAUDE_AUTOCOMPACT_PCT_OVERRIDE'],
    describe: 'CLAUDE_CONFIG_DIR, else ~/.claude and ~/.config/claude',
  },
  tools: CLAUDE_CODE_TOOLS,
  reservedOutputTokens,
  command: 'claude',
  installPackage: '@anthropic-ai/claude-code',
  installGuide: 'https://docs.anthropic.com/en/docs/claude-code/setup',
  // Asked last (see agents.ts): any JSONL file another agent does not claim is read as a transcript.
  owns: (path) => isClaudeCodeTranscript(path),
  listSessions: async (where, workspacePath) =>
    sessionsOf(await listSessions({ ...configDirs(where), ...(workspacePath !== undefined ? { workspacePath } : {}) })),
  readSessionInfo: (path) => readSessionInfo(path),
  readLiveContext: (session, options = {}) =>
    readLiveContext(session.path, {
      session,
      ...(options.windowOverride !== undefined ? { windowOverride: options.windowOverride } : {}),
      ...(options.env ? { env: options.env } : {}),
    }),
  follow: (session, options = {}) =>
    Promise.resolve(
      new SessionFollower(session.path, {
        ...(options.windowOverride !== undefined ? { windowOverride: options.windowOverride } : {}),
        watchProject: !session.isSidechain,
      }),
    ),
  waitForSession,
  sessionsBeside,
  readSessionCalls,
  resumeCommand: (session) => `claude --resume ${session.id}`,
  usage: (path) => new UsageLog(path),
  writeFork: writeForkFromResult,
  connection: claudeCodeConnection,
};
