// `ctxlens`: the session adapters and the compaction engine from a terminal. One command per
// file; this one dispatches and turns expected failures into exit codes (0 ok, 1 bad input, 2 usage).
import { version } from '../../package.json';
import { CliError, EXIT_INPUT, EXIT_OK, EXIT_USAGE } from './errors';
import type { Io } from './io';
import { printable } from '../protocol/printable';
import { stderr, stdout, type Output } from './stdio';

type Run = (args: readonly string[], io: Io) => Promise<number>;

interface Command {
  /** One line for the overview; the full usage comes with the command's code. */
  summary: string;
  /** Each command's code is loaded when it runs: `--help`, `statusline` and `inspect` load neither the SDK, zod nor the tokenizer. */
  load(): Promise<{ run: Run; usage: string }>;
}

const COMMANDS: Record<string, Command> = {
  // No agent named here: the names come from the registry, which loads every adapter (~100 ms that
  // `--help` must not pay); `sessions --help` names them (AGENT_NAMES).
  sessions: {
    summary: "list every agent's sessions, newest first",
    load: async () => {
      const m = await import('./sessions');
      return { run: m.sessionsCommand, usage: m.SESSIONS_USAGE };
    },
  },
  inspect: {
    summary: "show a session's live context: fill, what fills it, compactions",
    load: async () => {
      const m = await import('./inspect');
      return { run: m.inspectCommand, usage: m.INSPECT_USAGE };
    },
  },
  compact: {
    summary: 'compact a live context (preview, or --write-session to fork it)',
    load: async () => {
      const m = await import('./compact');
      return { run: m.compactCommand, usage: m.COMPACT_USAGE };
    },
  },
  connect: {
    summary: "add Context Lens's hooks and status line to Claude Code's settings",
    load: async () => {
      const m = await import('./connect');
      return { run: (args, io) => m.connectCommand('connect', args, io), usage: m.CONNECT_USAGE };
    },
  },
  disconnect: {
    summary: 'remove them again',
    load: async () => {
      const m = await import('./connect');
      return { run: (args, io) => m.connectCommand('disconnect', args, io), usage: m.CONNECT_USAGE };
    },
  },
  hook: {
    summary: 'Claude Code hook commands (pre-compact, session-start)',
    load: async () => {
      const m = await import('./hook');
      return { run: m.hookCommand, usage: m.HOOK_USAGE };
    },
  },
  archive: {
    summary: 'prune the archive of pre-compaction contexts',
    load: async () => {
      const m = await import('./archive');
      return { run: m.archiveCommand, usage: m.ARCHIVE_USAGE };
    },
  },
  statusline: {
    summary: "Claude Code's status line command",
    load: async () => {
      const m = await import('./statusline');
      return { run: m.statuslineCommand, usage: m.STATUSLINE_USAGE };
    },
  },
  proxy: {
    summary: 'start the live proxy',
    load: async () => {
      const m = await import('./proxy');
      return { run: m.proxyCommand, usage: m.PROXY_USAGE };
    },
  },
  run: {
    summary: 'run a command with the live proxy in front of it',
    load: async () => {
      const m = await import('./run');
      return { run: m.runCommand, usage: m.RUN_USAGE };
    },
  },
  mcp: {
    summary: 'an MCP server for the agent',
    load: async () => {
      const m = await import('./mcp');
      return { run: m.mcpCommand, usage: m.MCP_USAGE };
    },
  },
  resident: {
    summary: "answer inspect and sessions for VS Code's terminals (the extension starts it)",
    load: async () => {
      const m = await import('./resident');
      return { run: m.residentCommand, usage: m.RESIDENT_USAGE };
    },
  },
};

const width = Math.max(...Object.keys(COMMANDS).map((name) => name.length));

const USAGE = `Usage: ctxlens <command> [options]   (Context Lens from a terminal)

${Object.entries(COMMANDS)
  .map(([name, command]) => `  ctxlens ${name.padEnd(width)}  ${command.summary}`)
  .join('\n')}

  --version     print the version
  --help        print this help; ctxlens <command> --help prints the command's options

Exit codes: 0 ok, 1 bad input (unreadable file, unknown id, compaction failed), 2 usage.
hook and statusline always exit 0 whatever their stdin holds: they run inside Claude Code.
`;

export async function main(
  argv: readonly string[],
  out: Output = stdout,
  err: Output = stderr,
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
  const entry = COMMANDS[first];
  if (entry === undefined) {
    err.write(`ctxlens: unknown command '${printable(first, true)}'\n\n${USAGE}`);
    return EXIT_USAGE;
  }
  const command = await entry.load();
  if (rest.includes('--help') || rest.includes('-h')) {
    out.write(`Usage: ${command.usage}\n`);
    return EXIT_OK;
  }
  try {
    return await command.run(rest, { out, err, env });
  } catch (error) {
    if (!(error instanceof CliError)) return internalError(first, error, err, env);
    err.write(`ctxlens ${first}: ${printable(error.message, true)}\n`);
    if (error.exitCode === EXIT_USAGE) err.write(`\nUsage: ${command.usage}\n`);
    return error.exitCode;
  }
}

/**
 * A bug, not an expected failure: one line for the person (input that reaches here is still bad
 * input to them), the stack only when CONTEXT_LENS_DEBUG is set, for the report.
 */
function internalError(command: string, error: unknown, err: Output, env: Readonly<Record<string, string | undefined>>): number {
  const message =
    error instanceof RangeError && /call stack/i.test(error.message)
      ? 'input nested too deeply to process'
      : error instanceof Error
        ? error.message
        : String(error);
  err.write(`ctxlens ${command}: internal error: ${printable(message, true)} (CONTEXT_LENS_DEBUG=1 shows the stack)\n`);
  if (env.CONTEXT_LENS_DEBUG) err.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  return EXIT_INPUT;
}

/** Runs the command line of this process (dist/cli.js, bin.ts, calls it). */
export function start(): void {
  main(process.argv.slice(2)).then(
    (code) => (process.exitCode = code),
    (error: unknown) => {
      // A bug, not an expected failure: keep the stack for the report.
      console.error(error);
      process.exitCode = 1;
    },
  );
}

// Bundled on its own (as the tests build it), this file is the command.
if (require.main === module) start();
