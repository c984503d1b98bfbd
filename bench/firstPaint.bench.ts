// First paint of a session (figures, not tests): `npx tsx bench/firstPaint.bench.ts`, after
// `npm run package` for the VS Code part. Two parts:
// 1. The extension host's first read of a session, in this process with the host's own code: the
//    tail read the gauge is drawn from, the live context with its items sized from the recorded
//    usage, the timeline's per-call usage, and the longest the thread was blocked
//    meanwhile (the host serves every other extension and the panel on that thread).
// 2. The same in real VS Code (code-server, test/support/firstPaint.ts): with the panel open, the
//    session appears in the workspace; milliseconds until the panel shows the exact fill, the status
//    bar, the map, and a click made in the panel while it reads is answered; and VS Code's own
//    figure for the extension's activation (Developer: Show Running Extensions). Medians of RUNS
//    (default 3); SKIP_WORKBENCH=1 leaves this part out.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { readSnapshot } from '../src/host/context/liveSnapshot';
import { claudeCodeAdapter } from '../src/sessions/claude-code/adapter';
import { openSession } from '../src/sessions/handle/open';
import { readFill } from '../src/sessions/claude-code/fill';
import { readSessionInfo } from '../src/sessions/claude-code/listing';
import { UsageLog } from '../src/sessions/claude-code/usageLog';
import { measureFirstPaint, type FirstPaint } from '../test/support/firstPaint';
import { buildTranscript, MB, template } from './support/transcripts';

const RUNS = Number(process.env.RUNS ?? 3);
const SIZES = [1, 10, 30, 100];
const TARGET_MS = 1000;

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;
const ms = (value: number): string => `${value.toFixed(0)} ms`;

interface HostRead {
  fillMs: number;
  snapshotMs: number;
  usageMs: number;
  longestBlockMs: number;
}

/** One first read as ContextModel does it: the tail read's fill, then the snapshot, then the usage from the live context's start. */
async function hostFirstRead(path: string): Promise<HostRead> {
  const info = await readSessionInfo(path);
  if (!info.ok) throw new Error(info.error.message);
  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  try {
    let started = performance.now();
    const fill = await readFill(path);
    if (!fill.ok) throw new Error(fill.error.message);
    const fillMs = performance.now() - started;
    started = performance.now();
    const handle = openSession(claudeCodeAdapter, info.value);
    const snapshot = await readSnapshot(handle);
    await handle.dispose();
    if (!snapshot.ok) throw new Error(snapshot.error.message);
    const snapshotMs = performance.now() - started;
    started = performance.now();
    await new UsageLog(path).update(snapshot.value.live.startOffset);
    const usageMs = performance.now() - started;
    return { fillMs, snapshotMs, usageMs, longestBlockMs: delay.max / 1e6 };
  } finally {
    delay.disable();
  }
}

async function hostPart(scratch: string): Promise<void> {
  // A history index of its own: every file's first read is a cold one. (Only for this part: the
  // same variable says where code-server is installed for the second.)
  const cache = process.env.CONTEXT_LENS_CACHE;
  process.env.CONTEXT_LENS_CACHE = join(scratch, 'cache');
  try {
    await hostReads(scratch);
  } finally {
    if (cache === undefined) delete process.env.CONTEXT_LENS_CACHE;
    else process.env.CONTEXT_LENS_CACHE = cache;
  }
}

async function hostReads(scratch: string): Promise<void> {
  console.log("The extension host's first read of a session (live context: the last 1 MB, after a compaction)");
  console.log('| session | tail read (gauge) | live context + counts | per-call usage | longest block of the host thread |');
  console.log('|---|---|---|---|---|');
  for (const size of SIZES) {
    const path = join(scratch, `host-${size}mb.jsonl`);
    buildTranscript(template(), path, { bytes: size * MB, liveBytes: 1 * MB });
    const read = await hostFirstRead(path);
    console.log(`| ${size} MB | ${ms(read.fillMs)} | ${ms(read.snapshotMs)} | ${ms(read.usageMs)} | ${ms(read.longestBlockMs)} |`);
    rmSync(path);
  }
}

async function workbenchPart(scratch: string): Promise<void> {
  console.log(`\nIn code-server, from the session appearing in the workspace (panel open), medians of ${RUNS}:`);
  console.log('| session | picked up | gauge exact | status bar | map | click while reading → picker | gauge ≤ 1 s |');
  console.log('|---|---|---|---|---|---|---|');
  const activations: number[] = [];
  for (const size of [1, 100]) {
    const runs: FirstPaint[] = [];
    for (let run = 0; run < RUNS; run++) runs.push(await measureFirstPaint({ scratch, name: `run-${size}-${run}`, bytes: size * MB, activation: true }));
    activations.push(...runs.map((figures) => figures.activationMs));
    const of = (pick: (figures: FirstPaint) => number) => median(runs.map(pick));
    const gauge = of((figures) => figures.gaugeMs);
    const ordered = runs.every((figures) => figures.gaugeBeforeMap);
    console.log(
      `| ${size} MB | ${ms(of((f) => f.pickedUpMs))} | ${ms(gauge)}${ordered ? '' : ' (NOT before the map in every run)'} | ${ms(of((f) => f.statusBarMs))} | ${ms(of((f) => f.mapMs))} | ${ms(of((f) => f.clickAnsweredMs))} | ${gauge <= TARGET_MS ? 'ok' : 'MISSES'} |`,
    );
  }
  // Activated at startup, before any session appears: the same measure in every run.
  const sorted = [...activations].sort((a, b) => a - b);
  console.log(
    `\nActivation (VS Code's figure, Developer: Show Running Extensions), ${sorted.length} runs: median ${ms(median(sorted))} (${ms(sorted[0] ?? Number.NaN)}–${ms(sorted.at(-1) ?? Number.NaN)})`,
  );
}

async function main(): Promise<void> {
  const scratch = mkdtempSync(join(tmpdir(), 'context-lens-first-paint-bench-'));
  try {
    await hostPart(scratch);
    if (process.env.SKIP_WORKBENCH !== '1') await workbenchPart(scratch);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

void main();
