// The adapter port's reading and writing for an agent of the OpenCode family, built from its flavour:
// the agent's folder adds what only it knows (its names, install, tools, home) and nothing else.
import { homesOf, type AgentAdapter, type SessionLocations, type SessionWaiter } from '../../port';
import { ok } from '../../result';
import type { Diagnostic, Result, SessionInfo } from '../../types';
import type { OpencodeFlavour } from './flavour';
import { writeOpencodeFork } from './fork';
import { OpencodeSessionFollower } from './follower';
import { findOpencodeWorkspaceSession, listOpencodeSessions, readOpencodeSessionInfo } from './listing';
import { readOpencodeLiveContext } from './liveContext';
import { readOpencodeCompaction } from './compactionSides';
import { parseSessionPath, resolveDatabases, type OpencodeWhere } from './paths';
import { readOpencodeSessionCalls } from './sessionCalls';
import { databaseStamp } from './stamp';
import { OpencodeUsageLog } from './usageLog';

/** What the family builds; the rest of AgentAdapter is the agent's own. */
export type OpencodeFamilyPorts = Pick<
  AgentAdapter,
  | 'reservedOutputTokens'
  | 'resumeCommand'
  | 'listSessions'
  | 'findWorkspaceSession'
  | 'readSessionInfo'
  | 'readLiveContext'
  | 'readCompaction'
  | 'follow'
  | 'waitForSession'
  | 'sessionsBeside'
  | 'usage'
  | 'readSessionCalls'
  | 'writeFork'
>;

const windowOf = (options: { windowOverride?: number; env?: Readonly<Record<string, string | undefined>> }) => ({
  ...(options.windowOverride !== undefined ? { windowOverride: options.windowOverride } : {}),
  ...(options.env !== undefined ? { env: options.env } : {}),
});

export function opencodeFamilyPorts(flavour: OpencodeFlavour): OpencodeFamilyPorts {
  /** The databases named for this agent (none: its defaults). */
  const whereOf = (where: SessionLocations): OpencodeWhere => ({ databases: homesOf(where, flavour.id), ...(where.env ? { env: where.env } : {}) });

  /** Forks are imported into their source's database: its sessions are enough to look in. */
  async function sessionsBeside(session: SessionInfo): Promise<Result<SessionInfo[]>> {
    const parsed = parseSessionPath(session.path);
    return parsed === null ? ok([]) : listOpencodeSessions(flavour, { databases: [parsed.db] });
  }

  /** Polls the workspace's sessions until one appears (the database may not exist yet), reading only when a database moved. */
  async function waitForSession(
    workspacePath: string,
    where: SessionLocations,
    found: (session: SessionInfo) => void,
    report: (diagnostic: Diagnostic) => void,
  ): Promise<SessionWaiter> {
    const familyWhere = whereOf(where);
    const seen = new Set<string>();
    let reported = false;
    let last = '';
    const check = async (): Promise<void> => {
      const stamps = (await Promise.all(resolveDatabases(flavour, familyWhere).map(databaseStamp))).join(',');
      if (stamps === last) return;
      last = stamps;
      const listed = await listOpencodeSessions(flavour, familyWhere, workspacePath);
      if (!listed.ok) {
        if (!reported) report({ severity: 'warning', code: listed.error.code, message: listed.error.message });
        reported = true;
        return;
      }
      for (const session of listed.value) {
        if (session.isSidechain || seen.has(session.id)) continue;
        seen.add(session.id);
        found(session);
      }
    };
    await check();
    const timer = setInterval(() => void check(), 2000);
    return { where: resolveDatabases(flavour, familyWhere), dispose: () => clearInterval(timer) };
  }

  return {
    // It compacts that far below the window to leave room for the next response (window.ts).
    reservedOutputTokens: (fill) => Math.max(0, fill.windowTokens - fill.agentAutoCompactTokens),
    resumeCommand: (session) => `${flavour.command} --session ${session.id}`,
    listSessions: (where, workspacePath) => listOpencodeSessions(flavour, whereOf(where), workspacePath),
    findWorkspaceSession: (workspacePath, where) => findOpencodeWorkspaceSession(flavour, workspacePath, whereOf(where)),
    readSessionInfo: (path) => readOpencodeSessionInfo(flavour, path),
    readLiveContext: (session, options = {}) => readOpencodeLiveContext(flavour, session, windowOf(options)),
    readCompaction: (live, event) => readOpencodeCompaction(flavour, live, event),
    follow: (session, options = {}) => Promise.resolve(new OpencodeSessionFollower(flavour, session, windowOf(options))),
    waitForSession,
    sessionsBeside,
    usage: (path) => new OpencodeUsageLog(path),
    readSessionCalls: (session) => readOpencodeSessionCalls(flavour, session),
    writeFork: (input) => writeOpencodeFork(flavour, input),
  };
}
