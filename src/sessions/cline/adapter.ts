// Cline behind the adapter port (port.ts), both of its layouts: the SDK's sessions (the `cline` CLI
// and the v4 extension, under CLINE_DATA_DIR or ~/.cline/data) and the VS Code extension's task
// folders (its globalStorage in VS Code or VS Code Insiders). A session is named by its messages
// file. Forks are written as new sessions (SDK: `cline --id <id>` resumes them) or new task folders.
import { homesOf, type AgentAdapter, type SessionLocations, type SessionWaiter } from '../port';
import { ok } from '../result';
import type { Diagnostic, Result, SessionInfo } from '../types';
import { writeClineFork } from './fork';
import { ClineSessionFollower } from './follower';
import { findClineWorkspaceSession, listClineSessions, readClineSessionInfo } from './listing';
import { readClineLiveContext } from './liveContext';
import { CLINE_DATA_ENV, CLINE_ID, placeOf, resolveHomes, resumeCommandOf, type ClineWhere } from './paths';
import { readClineSessionCalls } from './sessionCalls';
import { CLINE_TOOLS } from './tools';
import { ClineUsageLog } from './usageLog';

function whereOf(where: SessionLocations): ClineWhere {
  return { homes: homesOf(where, CLINE_ID), ...(where.env ? { env: where.env } : {}) };
}

/** Forks are written beside their source: its data folder (or task storage) is enough to look in. */
async function sessionsBeside(session: SessionInfo): Promise<Result<SessionInfo[]>> {
  const place = placeOf(session.path);
  return place === null ? ok([]) : listClineSessions({ homes: [place.layout === 'sdk' ? place.dataDir : place.storage] });
}

/** Polls the workspace's sessions until one appears (the folders may not exist yet). */
async function waitForSession(
  workspacePath: string,
  where: SessionLocations,
  found: (session: SessionInfo) => void,
  _report: (diagnostic: Diagnostic) => void,
): Promise<SessionWaiter> {
  const clineWhere = whereOf(where);
  const seen = new Set<string>();
  const check = async (): Promise<void> => {
    const listed = await listClineSessions(clineWhere, workspacePath);
    for (const session of listed.ok ? listed.value : []) {
      if (session.isSidechain || seen.has(session.path)) continue;
      seen.add(session.path);
      found(session);
    }
  };
  await check();
  const timer = setInterval(() => void check(), 2000);
  return { where: resolveHomes(clineWhere), dispose: () => clearInterval(timer) };
}

/** This agent's id among the agents Context Lens reads (types.ts). */
declare module '../types' {
  interface KnownAgents {
    cline: true;
  }
}

export const clineAdapter: AgentAdapter = {
  id: CLINE_ID,
  name: 'Cline',
  command: 'cline',
  installPackage: 'cline',
  installGuide: 'https://docs.cline.bot/cline-cli/overview',
  pointSetBy: "Cline itself, from the model's context window (the window less 27–40k, or 80 % of it)",
  home: {
    option: 'cline-dir',
    env: CLINE_DATA_ENV,
    // Where VS Code keeps the extension's task folders on Windows.
    otherEnv: ['APPDATA', 'USERPROFILE'],
    describe: "CLINE_DATA_DIR, else ~/.cline/data; and the VS Code extension's globalStorage/saoudrizwan.claude-dev (VS Code, VS Code Insiders)",
  },
  tools: CLINE_TOOLS,
  reservedOutputTokens: (fill) => Math.max(0, fill.windowTokens - fill.agentAutoCompactTokens),
  owns: (path) => Promise.resolve(placeOf(path) !== null),
  listSessions: (where, workspacePath) => listClineSessions(whereOf(where), workspacePath),
  findWorkspaceSession: (workspacePath, where) => findClineWorkspaceSession(workspacePath, whereOf(where)),
  readSessionInfo: readClineSessionInfo,
  readLiveContext: (session, options = {}) =>
    readClineLiveContext(session, session.path, options.windowOverride !== undefined ? { windowOverride: options.windowOverride } : {}),
  follow: (session, options = {}) =>
    Promise.resolve(new ClineSessionFollower(session, options.windowOverride !== undefined ? { windowOverride: options.windowOverride } : {})),
  waitForSession,
  sessionsBeside,
  usage: (path) => new ClineUsageLog(path),
  readSessionCalls: readClineSessionCalls,
  resumeCommand: (session) => resumeCommandOf(session.path, session.id),
  writeFork: writeClineFork,
};
