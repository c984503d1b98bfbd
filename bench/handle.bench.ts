// The extension host's CPU per appended turn while following a 100 MB Claude Code session (figures,
// not tests): `npx tsx bench/handle.bench.ts`. What the host does on every change of the followed
// session: the follower reads the appended lines, then the panel's model reads the live context
// (and the engine's context of it, its breakdown), the usage points and the calls with their costs.
//   BENCH_MODE=before  those reads as the host made them before the session handle: each one anew,
//                      through the port (runs on a checkout before the handle, too: the same calls).
//   BENCH_MODE=after   through one session handle (src/sessions/handle/): the file held open, its
//                      newest bytes kept, each read once per change.
// Two live contexts: a long session compacted 256 KB before the end, and one whose live context is
// 8 MB. Turns are the recorded session's responses, appended one at a time; the first few warm up.
import { appendFileSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { claudeCodeAdapter } from '../src/sessions/claude-code/adapter';
import { engineContextOf } from '../src/sessions/engineContext';
import { breakdownOf } from '../src/host/context/derive';
import { costReport } from '../src/sessions/costReport';
import { indexPrices } from '../src/pricing/prices';
import { BUNDLED_PRICES } from '../src/pricing/bundledPrices';
import type { SessionInfo } from '../src/sessions/types';
import { tempDir } from '../test/unit/sessions/claude-code/builders';
import { buildTranscript, distinctResponses, lineOfCopy, MB, renamed, template } from './support/transcripts';

const MODE = process.env.BENCH_MODE === 'before' ? 'before' : 'after';
const TURNS = Number(process.env.TURNS ?? 24);
const WARM_UP = 4;
const SIZE_MB = Number(process.env.SIZE_MB ?? 100);
const prices = indexPrices(BUNDLED_PRICES);

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;

/** Something that follows the session and does the host's reads on each change. */
interface Follower {
  start(changed: () => void): Promise<void>;
  hostReads(): Promise<void>;
  dispose(): Promise<void>;
}

async function before(session: SessionInfo): Promise<Follower> {
  const follower = await claudeCodeAdapter.follow(session, { windowOverride: 0 });
  const usage = claudeCodeAdapter.usage(session.path);
  return {
    async start(changed) {
      follower.on('contextChanged', changed);
      await follower.start();
    },
    async hostReads() {
      const read = await claudeCodeAdapter.readLiveContext(session, { windowOverride: 0 });
      if (!read.ok) throw new Error(read.error.message);
      const context = engineContextOf(read.value);
      breakdownOf(context);
      await usage.update(read.value.startOffset);
      await costReport(prices, claudeCodeAdapter, read.value, context);
    },
    dispose: () => Promise.resolve(follower.dispose()),
  };
}

async function after(session: SessionInfo): Promise<Follower> {
  const { openSession } = await import('../src/sessions/handle/open');
  const { readSnapshot } = await import('../src/host/context/liveSnapshot');
  const { readCosts } = await import('../src/host/context/costs');
  const handle = openSession(claudeCodeAdapter, session, { windowOverride: 0 });
  return {
    async start(changed) {
      handle.on('contextChanged', changed);
      await handle.follow();
    },
    async hostReads() {
      const read = await readSnapshot(handle);
      if (!read.ok) throw new Error(read.error.message);
      await readCosts(prices, handle, read.value);
    },
    dispose: () => handle.dispose(),
  };
}

/** The recorded session's lines as copy `copy`, hung on `leaf`, cut after each response: one turn per entry. */
function turnsOf(lines: readonly string[], copy: number, leaf: string): string[] {
  const turns: string[] = [];
  let turn: string[] = [];
  let last: string | null = null;
  for (const line of lines) {
    const record = JSON.parse(line) as { type?: string; uuid?: string; parentUuid?: string | null; message?: { id?: string; usage?: unknown } };
    let text = lineOfCopy(line, copy);
    // The copy's root continues the conversation, as buildTranscript hangs its copies.
    if (record.parentUuid === null && record.uuid !== undefined) text = text.replace('"parentUuid":null', `"parentUuid":"${leaf}"`);
    turn.push(text);
    const id = record.type === 'assistant' && record.message?.usage !== undefined ? (record.message.id ?? null) : null;
    if (id !== null && id !== last) {
      turns.push(`${turn.join('\n')}\n`);
      turn = [];
    }
    if (id !== null) last = id;
  }
  if (turn.length > 0) turns.push(`${turn.join('\n')}\n`);
  return turns;
}

async function follow(path: string, copies: number, lines: readonly string[]): Promise<{ cpuMs: number; wallMs: number }> {
  const info = await claudeCodeAdapter.readSessionInfo(path);
  if (!info.ok) throw new Error(info.error.message);
  const follower = MODE === 'before' ? await before(info.value) : await after(info.value);
  let wake: (() => void) | null = null;
  await follower.start(() => {
    const resolve = wake;
    wake = null;
    resolve?.();
  });
  await follower.hostReads();
  const lastUuid = JSON.parse(lines.findLast((line) => line.includes('"uuid"')) as string) as { uuid: string };
  const cpu: number[] = [];
  const wall: number[] = [];
  let copy = copies;
  let leaf = renamed(lastUuid.uuid, copies - 1);
  let pending: string[] = [];
  for (let turn = 0; turn < TURNS + WARM_UP; turn++) {
    if (pending.length === 0) {
      pending = turnsOf(lines, copy, leaf);
      leaf = renamed(lastUuid.uuid, copy);
      copy++;
    }
    const text = pending.shift() as string;
    const changed = new Promise<boolean>((resolve) => {
      wake = () => resolve(true);
      // A turn that moves no figure of the fill is no change to the host: it reads nothing then.
      setTimeout(() => resolve(false), 3_000).unref();
    });
    appendFileSync(path, text);
    const started = process.cpuUsage();
    const startedAt = performance.now();
    if (!(await changed)) continue;
    await follower.hostReads();
    const used = process.cpuUsage(started);
    if (process.env.VERBOSE) console.error(`turn ${turn}: ${((process.cpuUsage(started).user + process.cpuUsage(started).system) / 1000).toFixed(1)} ms`);
    if (turn >= WARM_UP) {
      cpu.push((used.user + used.system) / 1000);
      // The follower's own wait (its debounce) is not work: the wall time is for reference.
      wall.push(performance.now() - startedAt);
    }
  }
  await follower.dispose();
  return { cpuMs: median(cpu), wallMs: median(wall) };
}

async function main(): Promise<void> {
  const dir = tempDir('cl-handle-bench-');
  process.env.CONTEXT_LENS_CACHE = join(dir, 'cache');
  const lines = template();
  console.log(
    `BENCH_MODE=${MODE}: the host's reads per appended turn while following a ${SIZE_MB} MB session, ${TURNS} turns after ${WARM_UP} to warm up, medians\n`,
  );
  console.log("LIVE CONTEXT   CPU PER TURN   WALL PER TURN (incl. the follower's 50 ms debounce)");
  for (const liveBytes of [256 * 1024, 8 * MB]) {
    const project = join(dir, `live-${liveBytes}`, 'projects', '-home-user-bench');
    mkdirSync(project, { recursive: true });
    const path = join(project, '9960bbf4-9712-4901-9c1e-600f03da49ad.jsonl');
    const built = buildTranscript(lines, path, { bytes: SIZE_MB * MB, liveBytes });
    distinctResponses(path);
    const { cpuMs, wallMs } = await follow(path, built.copies, lines);
    console.log(`${`${(liveBytes / MB).toFixed(liveBytes < MB ? 2 : 0)} MB`.padEnd(15)}${`${cpuMs.toFixed(1)} ms`.padEnd(15)}${wallMs.toFixed(1)} ms`);
  }
  rmSync(dir, { recursive: true, force: true });
}

void main();
