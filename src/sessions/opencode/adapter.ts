// OpenCode behind the adapter port (port.ts): sessions are rows of its SQLite database (OPENCODE_DB,
// else under the XDG data folder), read from private read-only snapshots (snapshot.ts), matched to a
// workspace by their `directory`, child sessions shown as subagents; the gauge's compaction point
// from its config. A session is named `<database>#<session id>`. A fork goes in through
// `opencode import` (fork.ts).
import { homesOf, type AgentAdapter, type SessionLocations, type SessionWaiter } from '../port';
import type { Diagnostic, SessionInfo } from '../types';
import { writeOpencodeFork } from './fork';
import { OpencodeSessionFollower } from './follower';
import { findOpencodeWorkspaceSession, listOpencodeSessions, OPENCODE_AGENT, readOpencodeSessionInfo } from './listing';
import { readOpencodeLiveContext } from './liveContext';
import { OPENCODE_ID, parseSessionPath, resolveDatabases, type OpencodeWhere } from './paths';
import { readOpencodeSessionCalls } from './sessionCalls';
import { OPENCODE_TOOLS } from './tools';
import { OpencodeUsageLog } from './usageLog';
import { databaseStamp } from './stamp';
import { opencodeConnection } from './connection';

/** The databases named for OpenCode (none: its defaults). */
function whereOf(where: SessionLocations): OpencodeWhere {
  return { databases: homesOf(where, OPENCODE_ID), ...(where.env ? { env: where.env } : {}) };
}

/** Forks are imported into their source's database: its sessions with a fork note naming the source. */
async function listForks(session: SessionInfo): Promise<SessionInfo[]> {
  const parsed = parseSessionPath(session.path);
  if (parsed === null) return [];
  const listed = await listOpencodeSessions({ databases: [parsed.db] });
  if (!listed.ok) return [];
  return listed.value.filter((other) => other.forkOf?.sessionId === session.id).sort((a, b) => a.lastActivityMs - b.lastActivityMs);
}

/** Polls the workspace's sessions until one appears (the database may not exist yet), reading only when a database moved. */
async function waitForSession(workspacePath: string, where: SessionLocations, found: (session: SessionInfo) => void, report: (diagnostic: Diagnostic) => void): Promise<SessionWaiter> {
  const opencodeWhere = whereOf(where);
  const seen = new Set<string>();
  let reported = false;
  let last = '';
  const check = async (): Promise<void> => {
    const stamps = (await Promise.all(resolveDatabases(opencodeWhere).map(databaseStamp))).join(',');
    if (stamps === last) return;
    last = stamps;
    const listed = await listOpencodeSessions(opencodeWhere, workspacePath);
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
  return { where: resolveDatabases(opencodeWhere), dispose: () => clearInterval(timer) };
}

const windowOf = (options: { windowOverride?: number; env?: Readonly<Record<string, string | undefined>> }) => ({
  ...(options.windowOverride !== undefined ? { windowOverride: options.windowOverride } : {}),
  ...(options.env !== undefined ? { env: options.env } : {}),
});

export const opencodeAdapter: AgentAdapter = {
  id: OPENCODE_AGENT,
  name: 'OpenCode',
  command: 'opencode',
  installPackage: 'opencode-ai',
  installGuide: 'https://opencode.ai/docs/#install',
  pointSetBy: "OpenCode's `compaction.reserved` and the model's limit in its config",
  home: { option: 'opencode-db', env: 'OPENCODE_DB', describe: 'OPENCODE_DB, else $XDG_DATA_HOME/opencode/opencode.db (~/.local/share/opencode/opencode.db)' },
  tools: OPENCODE_TOOLS,
  // It compacts that far below the window to leave room for the next response (window.ts).
  reservedOutputTokens: (fill) => Math.max(0, fill.windowTokens - fill.agentAutoCompactTokens),
  resumeCommand: (session) => `opencode --session ${session.id}`,
  owns: (path: string) => Promise.resolve(parseSessionPath(path) !== null),
  listSessions: (where: SessionLocations, workspacePath?: string) => listOpencodeSessions(whereOf(where), workspacePath),
  findWorkspaceSession: (workspacePath: string, where: SessionLocations) => findOpencodeWorkspaceSession(workspacePath, whereOf(where)),
  readSessionInfo: readOpencodeSessionInfo,
  readLiveContext: (session, options = {}) => readOpencodeLiveContext(session, windowOf(options)),
  follow: (session, options = {}) => Promise.resolve(new OpencodeSessionFollower(session, windowOf(options))),
  waitForSession,
  listForks,
  usage: (path: string) => new OpencodeUsageLog(path),
  readSessionCalls: readOpencodeSessionCalls,
  writeFork: writeOpencodeFork,
  connection: opencodeConnection,
};

