// Gemini CLI behind the adapter port (port.ts): chats under each `.gemini` folder's tmp/<project>/
// matched to a workspace through projects.json, read with the CLI's compression threshold from its
// settings files, forks written as new chats that `gemini -r <id>` resumes.
import { homesOf, type AgentAdapter, type SessionLocations } from '../port';
import { sessionsOf } from '../common/listed';
import { ok } from '../result';
import type { Result, SessionInfo } from '../types';
import { GeminiSessionFollower } from './follower';
import { writeGeminiFork } from './forkFromResult';
import { isGeminiChat, listGeminiSessions, readGeminiSessionInfo } from './listing';
import { readGeminiLiveContext } from './liveContext';
import { readGeminiCompaction } from './compactionSides';
import { chatPlaceOf, GEMINI_HOME_ENV, resolveGeminiDirs, type GeminiHomeOptions } from './paths';
import { GEMINI_AGENT } from './records';
import { readGeminiSessionCalls } from './sessionCalls';
import { waitForGeminiSession } from './sessionWaiter';
import { GEMINI_TOOLS } from './tools';
import { geminiLiveProxy } from './liveProxy';
import { GeminiUsageLog } from './usageLog';
import { readCompressionThreshold } from './window';
import { geminiConnection } from './connection';

/** The folders given for Gemini (none: its defaults). */
function homes(where: SessionLocations): GeminiHomeOptions {
  return { geminiHomes: homesOf(where, GEMINI_AGENT), ...(where.env ? { env: where.env } : {}) };
}

/** The read options with the session's compression threshold from its settings files. */
async function fillOptions(session: SessionInfo, options: { windowOverride?: number; env?: Readonly<Record<string, string | undefined>> }) {
  const compressionThreshold = await readCompressionThreshold({
    geminiDir: chatPlaceOf(session.path)?.geminiDir ?? null,
    cwd: session.cwd,
    ...(options.env ? { env: options.env } : {}),
  });
  return { compressionThreshold, ...(options.windowOverride !== undefined ? { windowOverride: options.windowOverride } : {}) };
}

/** Forks are written next to their source: its folder is enough to look in. */
async function sessionsBeside(session: SessionInfo): Promise<Result<SessionInfo[]>> {
  const place = chatPlaceOf(session.path);
  return place === null ? ok([]) : sessionsOf(await listGeminiSessions({ geminiHomes: [place.geminiDir] }));
}

/** This agent's id among the agents Context Lens reads (types.ts). */
declare module '../types' {
  interface KnownAgents {
    gemini: true;
  }
}

export const geminiAdapter: AgentAdapter = {
  id: GEMINI_AGENT,
  liveProxy: geminiLiveProxy,
  name: 'Gemini CLI',
  command: 'gemini',
  installPackage: '@google/gemini-cli',
  installGuide: 'https://github.com/google-gemini/gemini-cli#-installation',
  pointSetBy: 'model.compressionThreshold in its settings.json (default 0.5 of the model’s limit)',
  home: { option: 'gemini-home', env: GEMINI_HOME_ENV, otherEnv: ['GEMINI_CLI_SYSTEM_SETTINGS_PATH'], describe: '$GEMINI_CLI_HOME/.gemini, else ~/.gemini' },
  tools: GEMINI_TOOLS,
  // Its threshold is a share of the model's whole limit: nothing is held back below the window.
  reservedOutputTokens: () => 0,
  owns: (path) => isGeminiChat(path),
  listSessions: async (where, workspacePath) =>
    sessionsOf(await listGeminiSessions({ ...homes(where), ...(workspacePath !== undefined ? { workspacePath } : {}) })),
  readSessionInfo: (path) => readGeminiSessionInfo(path),
  readLiveContext: async (session, options = {}) => readGeminiLiveContext(session.path, { session, ...(await fillOptions(session, options)) }),
  readCompaction: (live, event) => readGeminiCompaction(live, event, (session) => readGeminiLiveContext(session.path, { session })),
  follow: async (session, options = {}) => new GeminiSessionFollower(session.path, await fillOptions(session, options)),
  waitForSession: async (workspacePath, where, found, report) => waitForGeminiSession(await resolveGeminiDirs(homes(where)), workspacePath, found, report),
  sessionsBeside,
  readSessionCalls: readGeminiSessionCalls,
  resumeCommand: (session) => `gemini -r ${session.id}`,
  usage: (path) => new GeminiUsageLog(path),
  writeFork: writeGeminiFork,
  connection: geminiConnection,
};
