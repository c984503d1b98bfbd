// The processes the reliability suite and the soak benchmark drive: the observer (upstream + stall
// witness), the built proxy (`cli.js proxy`) and one-shot commands, each with its peak RSS read from
// /proc/<pid>/status (VmHWM) while it runs and a deadline past which it is killed.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

/** The peak resident set of a live process in KB, or null once it is gone. */
export function peakRssKb(pid: number | undefined): number | null {
  if (pid === undefined) return null;
  try {
    const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) : null;
  } catch {
    return null;
  }
}

/** Its current resident set in KB, or null. */
export function rssKb(pid: number | undefined): number | null {
  if (pid === undefined) return null;
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) : null;
  } catch {
    return null;
  }
}

/** JSON lines from a child's stdout, one promise per line asked for. */
function lines(child: ChildProcess): () => Promise<Record<string, unknown>> {
  const queue: Record<string, unknown>[] = [];
  const waiting: ((value: Record<string, unknown>) => void)[] = [];
  createInterface({ input: child.stdout! }).on('line', (line) => {
    let value: Record<string, unknown>;
    try {
      value = JSON.parse(line) as Record<string, unknown>;
    } catch {
      return;
    }
    const next = waiting.shift();
    if (next) next(value);
    else queue.push(value);
  });
  return () => (queue.length > 0 ? Promise.resolve(queue.shift()!) : new Promise((resolve) => waiting.push(resolve)));
}

export interface Stall {
  events: number;
  error: string | null;
  medianDelayMs: number;
  /** The worst hold-up of the stream the proxy caused: net of the time the witness itself was not running. */
  stallMs: number;
  /** The same before that: what the witness saw. */
  rawStallMs: number;
  /** The witness's own worst event-loop delay over the watch. */
  ownLagMs: number;
}

export interface Observer {
  /** The stand-in upstream's URL. */
  readonly url: string;
  /** Runs `action` while a normal stream goes through the proxy at `port`; how much that stream was held back. */
  during<T>(port: number, action: () => Promise<T>): Promise<{ value: T; stall: Stall }>;
  stop(): Promise<void>;
}

export async function startObserver(): Promise<Observer> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(__dirname, 'observer.ts')], { stdio: ['pipe', 'pipe', 'inherit'] });
  const next = lines(child);
  const { url } = (await next()) as { url: string };
  let count = 0;
  return {
    url,
    async during(port, action) {
      const id = `w${count++}`;
      child.stdin!.write(`watch ${id} ${port}\n`);
      // A few events first, so the stream is flowing when the action begins.
      await new Promise((resolve) => setTimeout(resolve, 150));
      const value = await action();
      await new Promise((resolve) => setTimeout(resolve, 100));
      child.stdin!.write(`end ${id}\n`);
      return { value, stall: (await next()) as unknown as Stall };
    },
    stop: async () => {
      child.stdin!.end();
      await new Promise((resolve) => child.once('exit', resolve));
    },
  };
}

export interface ProxyProcess {
  readonly port: number;
  readonly pid: number;
  readonly stderr: () => string;
  /** Peak RSS so far (KB). */
  peakKb(): number | null;
  stop(): Promise<void>;
}

/** `cli.js proxy` in its own process, as `ctxlens proxy` runs; `wrap` puts a command before node (e.g. unshare). */
export async function startProxyProcess(
  cli: string,
  options: { upstream: string; stateDir: string; args?: readonly string[]; wrap?: readonly string[]; env?: NodeJS.ProcessEnv },
): Promise<ProxyProcess> {
  const argv = [process.execPath, cli, 'proxy', '--upstream', options.upstream, '--state-dir', options.stateDir, ...(options.args ?? [])];
  const [command, ...rest] = [...(options.wrap ?? []), ...argv] as [string, ...string[]];
  const child = spawn(command, rest, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...options.env } });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr = (stderr + chunk).slice(-20_000)));
  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      const match = /Listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(out);
      if (match) resolve(Number(match[1]));
    });
    child.once('exit', (code) => reject(new Error(`proxy exited (${code}): ${stderr}`)));
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let peak: number | null = null;
  return {
    port,
    pid: child.pid!,
    stderr: () => stderr,
    peakKb: () => (peak = peakRssKb(child.pid) ?? peak),
    stop: async () => {
      peak = peakRssKb(child.pid) ?? peak;
      child.kill('SIGTERM');
      await exited;
    },
  };
}

export interface CommandOutcome {
  code: number | null;
  timedOut: boolean;
  ms: number;
  peakKb: number | null;
  stdout: string;
  stderr: string;
}

/** A one-shot command of the built CLI, killed at `timeoutMs`; peak RSS polled every 20 ms. */
export function runCommand(
  entry: string,
  args: readonly string[],
  options: { stdin?: string | Buffer; env?: NodeJS.ProcessEnv; cwd?: string; timeoutMs: number; endStdinWhen?: (stdout: string) => boolean },
): Promise<CommandOutcome> {
  const started = performance.now();
  const child = spawn(process.execPath, [entry, ...args], {
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { ...process.env, NO_COLOR: '1', ...options.env },
    ...(options.cwd ? { cwd: options.cwd } : {}),
  });
  let stdout = '';
  let stderr = '';
  let peak: number | null = null;
  const poll = setInterval(() => (peak = peakRssKb(child.pid) ?? peak), 20);
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout = (stdout + chunk).slice(-100_000);
    if (options.endStdinWhen?.(stdout)) child.stdin.end();
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr = (stderr + chunk).slice(-20_000)));
  child.stdin.on('error', () => undefined);
  // A server (MCP) is given its input and kept listening until it has answered.
  if (options.endStdinWhen) child.stdin.write(options.stdin ?? '');
  else child.stdin.end(options.stdin ?? '');
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    child.kill('SIGKILL');
  }, options.timeoutMs);
  return new Promise((resolve) => {
    child.on('close', (code) => {
      clearTimeout(timer);
      clearInterval(poll);
      resolve({ code, timedOut, ms: performance.now() - started, peakKb: peak, stdout, stderr });
    });
  });
}
