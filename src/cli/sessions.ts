// `ctxlens sessions`: every agent's sessions of this workspace (or of every project with --all).
import { AGENTS } from '../sessions/agents';
import {
  AGENT_NAMES,
  AGENT_OPTION,
  AGENT_USAGE,
  agentOption,
  EXIT_OK,
  HOME_OPTIONS,
  HOMES_USAGE,
  inputError,
  locationsOf,
  parse,
  usageError,
  writeJson,
  type Io,
} from './io';
import { bytes, clip, printable, table } from './format';
import { lastActiveMs } from '../sessions/types';

/** A title or model longer than this is cut in the table. */
const TITLE_CHARS = 50;

export const SESSIONS_USAGE = `ctxlens sessions [--json] ${AGENT_USAGE} [--workspace PATH | --all]
  Lists ${AGENT_NAMES} sessions, newest first: those of the current folder, of
  --workspace PATH, or with --all those of every project (subagent transcripts included).
  ${HOMES_USAGE}`;

export async function sessionsCommand(args: readonly string[], io: Io): Promise<number> {
  const { values } = parse(args, { json: { type: 'boolean' }, workspace: { type: 'string' }, all: { type: 'boolean' }, ...HOME_OPTIONS, ...AGENT_OPTION }, 0);
  if (values.all && values.workspace !== undefined) throw usageError('--all and --workspace exclude each other');
  const only = agentOption(values.agent);
  const workspacePath = values.all ? undefined : (values.workspace ?? process.cwd());
  const sessions = [];
  for (const adapter of only ? [only] : AGENTS) {
    const listed = await adapter.listSessions(locationsOf(values, io), workspacePath);
    if (!listed.ok) throw inputError(listed.error.message);
    // A workspace's own sessions: its subagents' transcripts are listed with --all.
    sessions.push(...listed.value.filter((session) => workspacePath === undefined || !session.isSidechain));
  }
  sessions.sort((a, b) => lastActiveMs(b) - lastActiveMs(a));
  if (values.json) {
    writeJson(io, sessions);
    return EXIT_OK;
  }
  if (sessions.length === 0) {
    io.out.write(values.all ? `No ${AGENT_NAMES} sessions found.\n` : `No ${AGENT_NAMES} sessions for this folder (try --all or --workspace PATH).\n`);
    return EXIT_OK;
  }
  const rows = sessions.map((session) => [
    // A fork has its original's title: "Fork ·" leads, as in the picker, where a cut title cannot hide it.
    clip(`${session.forkOf ? 'Fork · ' : ''}${printable(session.title, true)}`, TITLE_CHARS),
    session.agent,
    session.model === null ? '—' : clip(printable(session.model, true), TITLE_CHARS),
    // The transcript's own last timestamp (as the picker's age); the file's mtime only when no record has one.
    new Date(lastActiveMs(session)).toISOString().replace('T', ' ').slice(0, 16),
    bytes(session.sizeBytes),
    // Ids come from file names, which may hold a newline or an ESC: escaped like the title, never clipped.
    printable(session.id, true),
  ]);
  io.out.write(`${table(['TITLE', 'AGENT', 'MODEL', 'LAST ACTIVITY (UTC)', 'SIZE', 'ID'], rows, [4])}\n`);
  return EXIT_OK;
}
