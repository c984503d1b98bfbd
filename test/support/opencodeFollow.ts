// The panel following a session of a big OpenCode database while OpenCode appends turns to it: the
// probe (opencodeFollowProbe.ts, bundled as the extension is) follows in a process of its own under
// the runtime given, a writer (opencodeTurnWriter.mjs, node:sqlite) appends turns as OpenCode does,
// and each turn's figures are taken: from the writer's last commit to the host's reads done, the
// bytes the follower read for it, the probe's peak RSS. Shared by the integration test and the bench.
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { buildSync } from 'esbuild';

const ROOT = join(__dirname, '..', '..');

export interface ProbeLine {
  usedTokens: number;
  lastRef: string | null;
  doneAt: number;
  bytesRead: number;
  reads: number;
  cpuMs: number;
  maxRssMiB: number;
}

export interface TurnFigure {
  turn: number;
  /** From the writer's last commit of the turn to the host's reads of it done (includes the follower's debounce). */
  latencyMs: number;
  /** Bytes read from files for the turn, over every change it made (the writer commits 7 times a turn). */
  bytesRead: number;
  /** The newest entry of the live context the host read: the turn's answer, `msg_~<turn, 4 digits>b`. */
  lastRef: string | null;
  /** The follower process's CPU time for the turn (its reads of every change the turn made). */
  cpuMs: number;
  /** Changes the probe read for the turn. */
  updates: number;
  /** What the turn's commits wrote to the log (its size grew by): the new pages a reader has to read. */
  walBytes: number;
  usedTokens: number;
}

export interface FollowFigures {
  initial: ProbeLine & { ms: number };
  turns: TurnFigure[];
  maxRssMiB: number;
}

/**
 * The probe bundled like the extension (node, cjs, production), in a temp folder removed at exit.
 * `root`: the checkout whose sources it is built from (another one: a before/after figure).
 */
export function bundleProbe(root = ROOT): string {
  const folder = mkdtempSync(join(tmpdir(), 'cl-oc-probe-'));
  process.once('exit', () => rmSync(folder, { recursive: true, force: true }));
  const outfile = join(folder, 'probe.js');
  buildSync({
    stdin: {
      contents: readFileSync(join(ROOT, 'test', 'support', 'opencodeFollowProbe.ts'), 'utf8'),
      resolveDir: join(root, 'test', 'support'),
      sourcefile: 'opencodeFollowProbe.ts',
      loader: 'ts',
    },
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    minify: true,
    mainFields: ['module', 'main'],
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'error',
    outfile,
  });
  return outfile;
}

export interface BigDb {
  path: string;
  sessionId: string;
}

/**
 * The heavy user's database of bench/support/opencodeDb.ts (1,002 sessions, ~400 MB by default),
 * built in `folder` by `node` (one with node:sqlite) in a few seconds.
 */
export function buildBigDb(node: string, folder: string, sessions = 1002, repeats = 12): BigDb {
  const script = `const b = require(${JSON.stringify(join(ROOT, 'bench', 'support', 'opencodeDb.ts'))}).buildOpencodeDb(${JSON.stringify(folder)}, ${sessions}, ${repeats}); process.stdout.write(JSON.stringify(b));`;
  const run = spawnSync(node, ['--no-warnings', '--import', 'tsx', '-e', script], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } });
  if (run.status !== 0) throw new Error(`building the database failed (exit ${run.status ?? run.signal}):\n${run.stderr}`);
  return JSON.parse(run.stdout) as BigDb;
}

/** JSON lines of a child's stdout, one at a time, failing with its stderr if it exits first. */
function linesOf(child: ChildProcessWithoutNullStreams, name: string): () => Promise<Record<string, unknown>> {
  const queue: Record<string, unknown>[] = [];
  const waiting: { resolve: (line: Record<string, unknown>) => void; reject: (error: Error) => void }[] = [];
  let stderr = '';
  let ended: Error | null = null;
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  createInterface({ input: child.stdout }).on('line', (line) => {
    const parsed = JSON.parse(line) as Record<string, unknown>;
    const next = waiting.shift();
    if (next) next.resolve(parsed);
    else queue.push(parsed);
  });
  child.on('exit', (code, signal) => {
    ended = new Error(`${name} exited (${code ?? signal}):\n${stderr}`);
    for (const next of waiting.splice(0)) next.reject(ended);
  });
  return () => {
    const next = queue.shift();
    if (next) return Promise.resolve(next);
    if (ended) return Promise.reject(ended);
    return new Promise((resolve, reject) => waiting.push({ resolve, reject }));
  };
}

function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise.finally(() => clearTimeout(timer)),
    new Promise<T>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what}: nothing after ${ms} ms`)), ms))),
  ]);
}

export interface FollowOptions {
  /** The probe's runtime (a shipped one). */
  node: string;
  /** A Node with node:sqlite, for the writer. */
  writerNode: string;
  probe: string;
  db: string;
  sessionId: string;
  turns: number;
  /** The prompt of the first appended call; each later one grows by 1,000. */
  firstPrompt: number;
  /** The first turn's number (turns' ids are made of it: a second run on the same database goes on from the first's). */
  firstTurn?: number;
}

/** Follows `sessionId` of `db` while `turns` turns are appended; both processes are ended before it returns. */
export async function followWhileAppending(options: FollowOptions): Promise<FollowFigures> {
  const startedAt = performance.timeOrigin + performance.now();
  const probe = spawn(options.node, [options.probe, options.db, options.sessionId], { stdio: 'pipe', env: { ...process.env, NODE_OPTIONS: '' } });
  const writer = spawn(options.writerNode, ['--no-warnings', join(__dirname, 'opencodeTurnWriter.mjs'), options.db, options.sessionId], { stdio: 'pipe' });
  try {
    const probeLine = linesOf(probe, 'the follower');
    const writerLine = linesOf(writer, 'the writer');
    const first = (await within(probeLine(), 60_000, 'the first read')) as unknown as ProbeLine;
    await within(writerLine(), 30_000, 'the writer');
    const turns: TurnFigure[] = [];
    let maxRssMiB = first.maxRssMiB;
    const firstTurn = options.firstTurn ?? 1;
    for (let turn = firstTurn; turn < firstTurn + options.turns; turn++) {
      const prompt = options.firstPrompt + (turn - firstTurn) * 1000;
      const output = 20;
      const walBefore = walSize(options.db);
      writer.stdin.write(`${JSON.stringify({ turn, input: 100, cacheRead: prompt - 100, output })}\n`);
      const { committedAt } = (await within(writerLine(), 30_000, `turn ${turn}'s write`)) as { committedAt: number };
      let bytesRead = 0;
      let cpuMs = 0;
      let updates = 0;
      for (;;) {
        const line = (await within(probeLine(), 30_000, `turn ${turn}'s update`)) as unknown as ProbeLine;
        bytesRead += line.bytesRead;
        cpuMs += line.cpuMs;
        updates++;
        maxRssMiB = Math.max(maxRssMiB, line.maxRssMiB);
        if (line.usedTokens !== prompt) continue;
        turns.push({
          turn,
          latencyMs: line.doneAt - committedAt,
          bytesRead,
          cpuMs,
          updates,
          walBytes: walSize(options.db) - walBefore,
          lastRef: line.lastRef,
          usedTokens: line.usedTokens,
        });
        break;
      }
    }
    return { initial: { ...first, ms: first.doneAt - startedAt }, turns, maxRssMiB };
  } finally {
    writer.stdin.end();
    probe.stdin.end();
    await Promise.all([exited(writer), exited(probe)]);
  }
}

const walSize = (db: string): number => statSync(`${db}-wal`, { throwIfNoEntry: false })?.size ?? 0;

function exited(child: ChildProcessWithoutNullStreams): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}
