// One run of an agent CLI under test, as a child process with an environment built by the caller:
// its output is collected whole and a run that hangs is killed, so a test fails instead of waiting.
import { spawn } from 'node:child_process';

export interface CliRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly timedOut: boolean;
}

export interface CliRunOptions {
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  /** Written to stdin and then closed; absent: no stdin at all (some CLIs wait for more prompt there). */
  readonly stdin?: string;
  /** Killed (SIGKILL) after this long (default 60 s). */
  readonly timeoutMs?: number;
}

export function runCli(command: string, args: readonly string[], options: CliRunOptions): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: [options.stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    // Both are piped; they are typed as optional only because stdin's choice is made at run time.
    child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    if (options.stdin !== undefined) child.stdin?.end(options.stdin);
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, options.timeoutMs ?? 60_000);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, timedOut });
    });
  });
}

/** How a run ended, with the ends of its output, for a failing assertion's message. */
export function runOutcome(run: CliRun): string {
  return `exit ${run.code}${run.timedOut ? ' (timed out)' : ''}\nstdout: ${run.stdout.slice(-1500)}\nstderr: ${run.stderr.slice(-1500)}`;
}
