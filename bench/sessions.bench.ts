// Session adapter benchmarks (figures, not tests): `npm run bench`.
// Builds ≥100 MB transcripts by chaining copies of a recorded Claude Code session (fresh uuids per
// copy, each copy's root hung on the previous copy's leaf) and measures the tail-first fill against
// a naive full parse, live-context builds against live-context size, and follow latency.
import { appendFileSync, rmSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { SessionFollower } from '../src/sessions/claude-code/follower';
import { readFill } from '../src/sessions/claude-code/fill';
import { readLiveContext } from '../src/sessions/claude-code/liveContext';
import { tempDir } from '../test/unit/sessions/claude-code/builders';
import { buildTranscript, lineOfCopy, MB, template } from './support/transcripts';

async function median(runs: number, task: () => Promise<unknown>): Promise<number> {
  await task();
  const times: number[] = [];
  for (let run = 0; run < runs; run++) {
    const started = performance.now();
    await task();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)] as number;
}

/** What a reader without tail-first reading does: parse every line, keep the last usage. */
async function naiveFill(path: string): Promise<number> {
  let used = 0;
  for (const line of (await readFile(path, 'utf8')).split('\n')) {
    if (line === '') continue;
    const record = JSON.parse(line) as {
      type?: string;
      message?: { usage?: { input_tokens: number; cache_creation_input_tokens: number; cache_read_input_tokens: number } };
    };
    const usage = record.type === 'assistant' ? record.message?.usage : undefined;
    if (usage) used = usage.input_tokens + usage.cache_creation_input_tokens + usage.cache_read_input_tokens;
  }
  return used;
}

const ms = (value: number) => `${value.toFixed(1)} ms`;
const size = (path: string) => `${(statSync(path).size / MB).toFixed(1)} MB`;

async function main(): Promise<void> {
  const dir = tempDir('cl-bench-');
  const lines = template();
  const small = join(dir, 'small.jsonl');
  const large = join(dir, 'large.jsonl');
  buildTranscript(lines, small, { bytes: 1 * MB });
  buildTranscript(lines, large, { bytes: 100 * MB });
  console.log(`Transcripts: ${size(small)} and ${size(large)} (chained copies of the recorded multi-prompt session)\n`);

  const fillSmall = await median(21, () => readFill(small));
  const fillLarge = await median(21, () => readFill(large));
  const naive = await median(3, () => naiveFill(large));
  const check = await readFill(large);
  if (!check.ok || check.value.fill.usedTokens !== (await naiveFill(large))) throw new Error('tail-first and naive fills disagree');
  console.log('Fill (median, warm cache)');
  console.log(
    `  tail-first   1 MB: ${ms(fillSmall)}   100 MB: ${ms(fillLarge)}   (+${ms(fillLarge - fillSmall)} for 100x the size; read ${check.value.bytesScanned} bytes)`,
  );
  console.log(`  naive full JSON.parse of 100 MB: ${ms(naive)}   ratio naive / tail-first: ${(naive / fillLarge).toFixed(0)}x\n`);

  // The first build of a file also reads all of it once for the compaction history; later builds
  // (the panel rebuilds on every change) continue that pass from where it stopped.
  console.log('Live context build vs live-context size (first build of the file, then the median of later builds)');
  for (const live of [1, 10, 100]) {
    const path = join(dir, `live-${live}.jsonl`);
    buildTranscript(lines, path, { bytes: 100 * MB, liveBytes: live < 100 ? live * MB : undefined });
    const started = performance.now();
    const result = await readLiveContext(path);
    const first = performance.now() - started;
    if (!result.ok) throw new Error(result.error.message);
    const liveMb = (statSync(path).size - (result.value.compactions.at(-1)?.offset ?? 0)) / MB;
    const time = await median(live < 100 ? 11 : 3, () => readLiveContext(path));
    console.log(
      `  ${size(path)} file, live context ${liveMb.toFixed(1)} MB (${result.value.messages.length} messages, source ${result.value.source}): first ${ms(first)}, then ${ms(time)} = ${ms(time / liveMb)} per live MB`,
    );
    if (live > 1) rmSync(path);
  }
  const oneMbLive = join(dir, 'live-1.jsonl');
  const onSmall = await median(21, () => readLiveContext(small));
  const onLarge = await median(21, () => readLiveContext(oneMbLive));
  console.log(`  1 MB live context: on a ${size(small)} file ${ms(onSmall)}, on a ${size(oneMbLive)} file ${ms(onLarge)}`);
  rmSync(oneMbLive);

  const debounceMs = 50;
  console.log(`\nFollow: one appended line → contextChanged, end to end (debounce ${debounceMs} ms, 100 MB file)`);
  const follower = new SessionFollower(large, { debounceMs });
  await follower.start();
  const latencies: number[] = [];
  const assistant = lines.filter((line) => line.includes('"type":"assistant"')).at(-1) as string;
  for (let round = 0; round < 10; round++) {
    // Quiet for longer than a window and a trailing run's window: each append is a first change.
    await new Promise((resolve) => setTimeout(resolve, 3 * debounceMs));
    const changed = new Promise<void>((resolve) => follower.once('contextChanged', () => resolve()));
    const started = performance.now();
    appendFileSync(large, `${lineOfCopy(assistant, 0xfff000 + round)}\n`);
    await changed;
    latencies.push(performance.now() - started);
  }
  follower.dispose();
  latencies.sort((a, b) => a - b);
  console.log(`  latency: median ${ms(latencies[5] as number)}, max ${ms(latencies.at(-1) as number)}`);
  rmSync(dir, { recursive: true, force: true });
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
