// `context-lens sessions`: the transcripts of this workspace (or every project with --all).
import { listSessions } from '../sessions/claude-code';
import { CONFIG_DIR_OPTION, EXIT_OK, configDirOptions, inputError, parse, usageError, writeJson, type Io } from './io';
import { bytes, printable, table } from './format';

export const SESSIONS_USAGE = `context-lens sessions [--json] [--config-dir DIR]… [--workspace PATH | --all]
  Lists Claude Code sessions, newest first: those of the current folder, of --workspace PATH, or
  with --all those of every project (subagent transcripts included).`;

export async function sessionsCommand(args: readonly string[], io: Io): Promise<number> {
  const { values } = parse(args, { json: { type: 'boolean' }, workspace: { type: 'string' }, all: { type: 'boolean' }, ...CONFIG_DIR_OPTION }, 0);
  if (values.all && values.workspace !== undefined) throw usageError('--all and --workspace exclude each other');
  const listed = await listSessions({
    ...configDirOptions(values['config-dir'], io),
    ...(values.all ? {} : { workspacePath: values.workspace ?? process.cwd(), includeSidechains: false }),
  });
  if (!listed.ok) throw inputError(listed.error.message);
  const { sessions } = listed.value;
  if (values.json) {
    writeJson(io, sessions);
    return EXIT_OK;
  }
  if (sessions.length === 0) {
    io.out.write(values.all ? 'No Claude Code sessions found.\n' : 'No Claude Code sessions for this folder (try --all or --workspace PATH).\n');
    return EXIT_OK;
  }
  const rows = sessions.map((session) => [
    clip(printable(session.title, true)),
    session.model === null ? '—' : clip(printable(session.model, true)),
    // The transcript's own last timestamp; the file's mtime only when no record has one.
    new Date(session.lastRecordAtMs ?? session.lastActivityMs).toISOString().replace('T', ' ').slice(0, 16),
    bytes(session.sizeBytes),
    session.id,
  ]);
  io.out.write(`${table(['TITLE', 'MODEL', 'LAST ACTIVITY (UTC)', 'SIZE', 'ID'], rows, [3])}\n`);
  return EXIT_OK;
}

const clip = (text: string): string => (text.length > 50 ? `${text.slice(0, 49)}…` : text);
