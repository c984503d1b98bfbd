// Codex CLI behind the adapter port (port.ts): rollouts under each CODEX_HOME's sessions/ matched to
// a workspace by their session_meta.cwd, reads with Codex's configured auto-compact limit, forks
// written as new rollouts that `codex resume <id>` continues.
import { homesOf, type AgentAdapter, type ForkInput, type SessionLocations, type WrittenFork } from '../port';
import { sessionsOf } from '../common/listed';
import { ok } from '../result';
import type { Result, SessionInfo } from '../types';
import { withConfiguredLimit } from './index';
import { CodexSessionFollower } from './follower';
import { writeCodexFork } from './fork';
import { codexForkRequestFromResult } from './forkFromResult';
import { isCodexRollout, listCodexSessions, readCodexSessionInfo } from './listing';
import { readCodexLiveContext } from './liveContext';
import { resolveCodexHomes } from './paths';
import { waitForCodexSession } from './sessionWaiter';
import { CodexUsageLog } from './usageLog';
import { codexHomeOf, type CodexHomeOptions } from './paths';
import { readCodexSessionCalls } from './sessionCalls';
import { CODEX_TOOLS } from './tools';
import { codexLiveProxy } from './liveProxy';
import { codexConnection } from './connection';

async function writeForkFromResult(input: ForkInput): Promise<Result<WrittenFork>> {
  const request = await codexForkRequestFromResult(input);
  return request.ok ? writeCodexFork(request.value) : request;
}

/** Forks are written into the source's CODEX_HOME: its sessions are enough to look in. */
async function sessionsBeside(session: SessionInfo): Promise<Result<SessionInfo[]>> {
  const home = codexHomeOf(session.path);
  return home === null ? ok([]) : sessionsOf(await listCodexSessions({ codexHomes: [home] }));
}

const homes = (where: SessionLocations): CodexHomeOptions => ({ codexHomes: homesOf(where, 'codex'), ...(where.env ? { env: where.env } : {}) });
const windowOf = (options: { windowOverride?: number }) => (options.windowOverride !== undefined ? { windowOverride: options.windowOverride } : {});

/** This agent's id among the agents Context Lens reads (types.ts). */
declare module '../types' {
  interface KnownAgents {
    codex: true;
  }
}

export const codexAdapter: AgentAdapter = {
  id: 'codex',
  liveProxy: codexLiveProxy,
  name: 'Codex CLI',
  pointSetBy: "model_auto_compact_token_limit in Codex's config.toml (default: 90 % of the model's window)",
  home: { option: 'codex-home', env: 'CODEX_HOME', describe: 'CODEX_HOME, else ~/.codex' },
  tools: CODEX_TOOLS,
  // Codex reports a window that is already what the model may fill: nothing is held back below it.
  reservedOutputTokens: () => 0,
  command: 'codex',
  installPackage: '@openai/codex',
  installGuide: 'https://github.com/openai/codex#installing-and-running-codex-cli',
  owns: (path) => isCodexRollout(path),
  listSessions: async (where, workspacePath) =>
    sessionsOf(await listCodexSessions({ ...homes(where), ...(workspacePath !== undefined ? { workspacePath } : {}) })),
  readSessionInfo: (path) => readCodexSessionInfo(path),
  readLiveContext: async (session, options = {}) =>
    readCodexLiveContext(session.path, await withConfiguredLimit(session.path, { session, ...windowOf(options) })),
  follow: async (session, options = {}) => new CodexSessionFollower(session.path, await withConfiguredLimit(session.path, windowOf(options))),
  waitForSession: (workspacePath, where, found, report) => waitForCodexSession(resolveCodexHomes(homes(where)), workspacePath, found, report),
  sessionsBeside,
  readSessionCalls: readCodexSessionCalls,
  resumeCommand: (session) => `codex resume ${session.id}`,
  usage: (path) => new CodexUsageLog(path),
  writeFork: writeForkFromResult,
  connection: codexConnection,
};
