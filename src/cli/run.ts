// `ctxlens run [proxy options] -- <command> …`: the live proxy for the lifetime of one command
// (typically `claude`), which finds it through ANTHROPIC_BASE_URL. The command's exit code is ours.
import { spawn } from 'node:child_process';
import { constants } from 'node:os';
import { parse, usageError, type Io } from './io';
import { PROXY_OPTIONS, PROXY_OPTIONS_USAGE, startFromFlags } from './proxy';

export const RUN_USAGE = `ctxlens run [proxy options] -- <command> [args…]
  Starts the live proxy on a free port, runs the command with ANTHROPIC_BASE_URL pointing at it
  (the upstream defaults to the ANTHROPIC_BASE_URL you had), stops the proxy when the command
  exits and exits with its code. Example: ctxlens run -- claude
${PROXY_OPTIONS_USAGE}`;

export async function runCommand(args: readonly string[], io: Io): Promise<number> {
  const split = args.indexOf('--');
  if (split === -1 || split === args.length - 1) throw usageError('missing the command to run after --');
  const { values } = parse(args.slice(0, split), PROXY_OPTIONS, 0);
  const [command, ...commandArgs] = args.slice(split + 1) as [string, ...string[]];
  const proxy = await startFromFlags(values, io);
  try {
    return await new Promise<number>((resolve) => {
      const child = spawn(command, commandArgs, { stdio: 'inherit', env: { ...io.env, ANTHROPIC_BASE_URL: proxy.url } });
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
