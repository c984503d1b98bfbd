// What the cost figures add to `inspect --json` (figures, not tests): `npx tsx bench/cost.bench.ts`.
// On transcripts of 1, 10 and 100 MB (bench/support/transcripts.ts: chained copies of a recorded
// session, a compaction 256 KB before the end), in one process: the whole command as a person runs
// it again (indexes warm), and the cost part alone (reading the session's calls, pricing them, the
// items' shares and the by-file groups) on the same loaded context. Medians of RUNS, pair by pair; the target: the
// figures add < 10 % to the command's time.
// The first read of a file (no index yet) is shown beside it: the calls are then read whole once.
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { loadPrices } from '../src/cli/cost';
import { costReport } from '../src/sessions/costReport';
import { main as cli } from '../src/cli/main';
import { tempDir } from '../test/unit/sessions/claude-code/builders';
import { buildTranscript, distinctResponses, MB, template } from './support/transcripts';
import { claudeCodeAdapter } from '../src/sessions/claude-code/adapter';
import { engineContextOf } from '../src/sessions/engineContext';

const RUNS = Number(process.env.RUNS ?? 7);
const SIZES = [1, 10, 100];
const TARGET = 0.1;

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;

async function timed(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

async function inspectJson(path: string): Promise<void> {
  const out = new PassThrough();
  const err = new PassThrough();
  out.resume();
  const code = await cli(['inspect', path, '--json'], out, err, process.env);
  if (code !== 0) throw new Error(`inspect failed: ${(err.read() as Buffer | null)?.toString() ?? ''}`);
}

async function main(): Promise<void> {
  const dir = tempDir('cl-cost-bench-');
  // Our indexes (compaction history, session calls) are part of what a repeated command costs.
  process.env.CONTEXT_LENS_CACHE = join(dir, 'cache');
  const lines = template();
  const rows: string[][] = [['TRANSCRIPT', 'INSPECT --JSON', 'COST PART', 'ADDED', 'FIRST READ OF THE CALLS', 'TARGET']];
  const prices = await loadPrices(undefined, { out: process.stdout, err: process.stderr, env: {} });
  for (const size of SIZES) {
    const project = join(dir, `config-${size}`, 'projects', '-home-user-bench');
    mkdirSync(project, { recursive: true });
    const path = join(project, '9960bbf4-9712-4901-9c1e-600f03da49ad.jsonl');
    buildTranscript(lines, path, { bytes: size * MB, liveBytes: 256 * 1024, preserved: 'dangling' });
    distinctResponses(path);
    const info = await claudeCodeAdapter.readSessionInfo(path);
    if (!info.ok) throw new Error(info.error.message);
    const cold = await timed(() => claudeCodeAdapter.readSessionCalls(info.value));
    const live = await claudeCodeAdapter.readLiveContext(info.value);
    if (!live.ok) throw new Error(live.error.message);
    const context = engineContextOf(live.value);
    // Warm-up: the first runs also compile what they call.
    for (let run = 0; run < 3; run++) {
      await inspectJson(path);
      await costReport(prices, claudeCodeAdapter, live.value, context);
    }
    const whole: number[] = [];
    const part: number[] = [];
    const shares: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      const a = await timed(() => inspectJson(path));
      const b = await timed(() => costReport(prices, claudeCodeAdapter, live.value, context));
      whole.push(a);
      part.push(b);
      // What the figures add: the cost part over the rest of the command.
      shares.push(b / Math.max(1e-9, a - b));
    }
    const share = median(shares);
    rows.push([
      `${size} MB`,
      `${median(whole).toFixed(0)} ms`,
      `${median(part).toFixed(1)} ms`,
      `${(share * 100).toFixed(1)} %`,
      `${cold.toFixed(0)} ms`,
      `< ${TARGET * 100} % ${share < TARGET ? 'ok' : 'MISSES'}`,
    ]);
  }
  console.log(`In one process, ${RUNS} runs after a warm-up, medians; ADDED is the cost part over the rest of the command, run by run.\n`);
  const widths = (rows[0] as string[]).map((_, column) => Math.max(...rows.map((row) => (row[column] ?? '').length)));
  for (const row of rows)
    console.log(
      row
        .map((cell, column) => cell.padEnd(widths[column] ?? 0))
        .join('  ')
        .trimEnd(),
    );
  rmSync(dir, { recursive: true, force: true });
}

void main();
