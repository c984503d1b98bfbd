// `ctxlens run [proxy options] -- <command> …`: the live proxy for the lifetime of one command. An
// agent's CLI the registry knows (its adapter's `liveProxy`) is pointed at the proxy the way it
// honours, for this command only (Claude Code: ANTHROPIC_BASE_URL; Codex: a `-c` base URL
// override; Gemini CLI and OpenCode: their variables), and the proxy sends its requests where they
// would have gone. Any other command gets ANTHROPIC_BASE_URL. The command's exit code is ours.
import { spawn } from 'node:child_process';
import { constants } from 'node:os';
import { basename } from 'node:path';
import { AGENTS } from '../sessions/agents';
import type { LiveProxyPointing } from '../sessions/liveProxy';
import { inputError, parse, usageError, type Io } from './io';
import { PROXY_OPTIONS, PROXY_OPTIONS_USAGE, startFromFlags } from './proxy';

export const RUN_USAGE = `ctxlens run [proxy options] -- <command> [args…]
  Starts the live proxy on a free port, runs the command pointed at it, stops the proxy when the
  command exits and exits with its code. claude gets ANTHROPIC_BASE_URL, codex a -c override of its
  provider's base URL, gemini GOOGLE_GEMINI_BASE_URL, opencode a provider baseURL through
  OPENCODE_CONFIG_CONTENT; your configuration files are only read. The upstream defaults to where
  the agent would have gone. Example: ctxlens run -- codex
${PROXY_OPTIONS_USAGE}`;

/** The agent whose CLI `command` runs, by its executable's name. */
function pointingOf(command: string): LiveProxyPointing | undefined {
  const name = basename(command);
  return AGENTS.find((adapter) => adapter.liveProxy?.commands.includes(name))?.liveProxy;
}

/** Where the command's requests go without `--upstream`, checked before the proxy starts. */
const PLACEHOLDER_ORIGIN = 'http://127.0.0.1:1';

export async function runCommand(args: readonly string[], io: Io): Promise<number> {
  const split = args.indexOf('--');
  if (split === -1 || split === args.length - 1) throw usageError('missing the command to run after --');
  const { values } = parse(args.slice(0, split), PROXY_OPTIONS, 0);
  const [command, ...commandArgs] = args.slice(split + 1) as [string, ...string[]];
  const agent = pointingOf(command);
  const planned = agent?.point(PLACEHOLDER_ORIGIN, io.env, commandArgs);
  if (planned && !planned.ok) throw inputError(`ctxlens run: ${planned.error}`);
  const proxy = await startFromFlags(planned ? { ...values, upstream: values.upstream ?? planned.value.upstream } : values, io);
  const pointed = agent?.point(proxy.url, io.env, commandArgs);
  const how = pointed?.ok ? pointed.value : { env: { ANTHROPIC_BASE_URL: proxy.url }, args: [] };
  try {
    return await new Promise<number>((resolve) => {
      const child = spawn(command, [...how.args, ...commandArgs], { stdio: 'inherit', env: { ...io.env, ...how.env } });
      // The terminal sends Ctrl-C to the whole process group; a kill aimed at us alone is passed on.
      const forward = (signal: NodeJS.Signals): void => void child.kill(signal);
      const ignore = (): void => undefined;
      process.on('SIGTERM', forward);
      process.on('SIGHUP', forward);
      process.on('SIGINT', ignore);
      const done = (code: number): void => {
        process.off('SIGTERM', forward);
        process.off('SIGHUP', forward);
        process.off('SIGINT', ignore);
        resolve(code);
      };
      child.on('error', (error) => {
        io.err.write(`ctxlens run: cannot start '${command}': ${error.message}\n`);
        // The shell's code for a command that cannot run.
        done(127);
      });
      child.on('exit', (code, signal) => done(code ?? 128 + (signal ? (constants.signals[signal] ?? 0) : 0)));
    });
  } finally {
    await proxy.stop();
  }
}
