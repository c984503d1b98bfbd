// `context-lens`: the session adapters and the compaction engine from a terminal. One command per
// file; this one dispatches and turns expected failures into exit codes (0 ok, 1 bad input, 2 usage).
import { version } from '../../package.json';
import { ARCHIVE_USAGE, archiveCommand } from './archive';
import { COMPACT_USAGE, compactCommand } from './compact';
import { CONNECT_USAGE, connectCommand } from './connect';
import { HOOK_USAGE, hookCommand } from './hook';
import { INSPECT_USAGE, inspectCommand } from './inspect';
import { MCP_USAGE, mcpCommand } from './mcp';
import { CliError, EXIT_OK, EXIT_USAGE, type Io } from './io';
import { PROXY_USAGE, proxyCommand } from './proxy';
import { RUN_USAGE, runCommand } from './run';
import { SESSIONS_USAGE, sessionsCommand } from './sessions';
import { STATUSLINE_USAGE, statuslineCommand } from './statusline';

const COMMANDS: Record<string, { run: (args: readonly string[], io: Io) => Promise<number>; usage: string }> = {
  sessions: { run: sessionsCommand, usage: SESSIONS_USAGE },
  inspect: { run: inspectCommand, usage: INSPECT_USAGE },
  compact: { run: compactCommand, usage: COMPACT_USAGE },
  connect: { run: (args, io) => connectCommand('connect', args, io), usage: CONNECT_USAGE },
  disconnect: { run: (args, io) => connectCommand('disconnect', args, io), usage: CONNECT_USAGE },
  hook: { run: hookCommand, usage: HOOK_USAGE },
  archive: { run: archiveCommand, usage: ARCHIVE_USAGE },
  statusline: { run: statuslineCommand, usage: STATUSLINE_USAGE },
  proxy: { run: proxyCommand, usage: PROXY_USAGE },
  run: { run: runCommand, usage: RUN_USAGE },
  mcp: { run: mcpCommand, usage: MCP_USAGE },
};

const USAGE = `Usage: context-lens <command> [options]

${[...new Set(Object.values(COMMANDS).map((command) => command.usage))].join('\n\n')}

  --version     print the version
  --help        print this help (or: context-lens <command> --help)

Exit codes: 0 ok, 1 bad input (unreadable file, unknown id, compaction failed), 2 usage.
hook and statusline always exit 0 whatever their stdin holds: they run inside Claude Code.
`;

export async function main(
  argv: readonly string[],
  out: NodeJS.WritableStream = process.stdout,
  err: NodeJS.WritableStream = process.stderr,
  env: Readonly<Record<string, string | undefined>> = process.env,
): Promise<number> {
  const [first, ...rest] = argv;
  if (first === '--version' || first === '-v') {
    out.write(`${version}\n`);
    return EXIT_OK;
  }
  if (first === undefined || first === '--help' || first === '-h') {
    out.write(USAGE);
    return EXIT_OK;
  }
  const command = COMMANDS[first];
  if (command === undefined) {
    err.write(`context-lens: unknown command '${first}'\n\n${USAGE}`);
    return EXIT_USAGE;
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    out.write(`Usage: ${command.usage}\n`);
    return EXIT_OK;
  }
  try {
    return await command.run(rest, { out, err, env });
  } catch (error) {
    if (!(error instanceof CliError)) throw error;
    err.write(`context-lens ${first}: ${error.message}\n`);
    if (error.exitCode === EXIT_USAGE) err.write(`\nUsage: ${command.usage}\n`);
    return error.exitCode;
  }
}

if (require.main === module) {
  main(process.argv.slice(2)).then(
    (code) => (process.exitCode = code),
    (error: unknown) => {
      // A bug, not an expected failure: keep the stack for the report.
      console.error(error);
      process.exitCode = 1;
    },
  );
}
