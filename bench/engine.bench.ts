// Engine benchmarks: prints figures, asserts nothing. Run with `npx tsx bench/engine.bench.ts`.
// Contexts come from the same seeded generator the tests use (repeated Reads, Bash, Grep, edits).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Tiktoken } from 'js-tiktoken/lite';
import o200kBase from 'js-tiktoken/ranks/o200k_base';
import { contextFromMessages } from '../src/engine/fromMessages';
import { runSupersede } from '../src/engine/ladder/supersede';
import type { Context } from '../src/engine/model';
import { resolveOptions } from '../src/engine/options';
import { ladderState, plan } from '../src/engine/plan';
import { estimateTokenizer } from '../src/engine/tokens/estimate';
import { charEstimateTokenizer } from '../src/engine/tokens/tokenizer';
import { generateMessages } from '../test/unit/engine/support/generate';

function percentile(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

function contextOf(tokens: number, outputScale = 1): Context {
  return contextFromMessages({ ...generateMessages({ targetChars: tokens * 4, seed: 7, outputScale }), windowTokens: tokens, usedTokens: tokens });
}

function timeIt(runs: number, body: () => void): number[] {
  body();
  return Array.from({ length: runs }, () => {
    const started = performance.now();
    body();
    return performance.now() - started;
  });
}

function tierOne(context: Context): void {
  runSupersede(ladderState(context, resolveOptions({ trigger: 'manual' }), estimateTokenizer));
}

function report(label: string, samples: number[], target: string): void {
  console.log(
    `${label}: p50 ${percentile(samples, 50).toFixed(2)} ms, p95 ${percentile(samples, 95).toFixed(2)} ms (target ${target}; ${samples.length} runs)`,
  );
}

/** Text the agent really sent: message contents of the recorded demo session's requests. */
function recordedRequestText(): string {
  const log = join(__dirname, '..', 'test', 'fixtures', 'claude-code', 'demo', 'requests.jsonl');
  return readFileSync(log, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.stringify((JSON.parse(line) as { body?: { messages?: unknown } }).body?.messages ?? ''))
    .join('\n');
}

interface Counter {
  readonly name: string;
  count(text: string): number;
}

function throughput(label: string, sample: string, counters: readonly Counter[]): void {
  const megabytes = Buffer.byteLength(sample) / 1_048_576;
  const counts = new Map<string, number>();
  for (const counter of counters) {
    counter.count('warm up');
    const started = performance.now();
    const tokens = counter.count(sample);
    const seconds = (performance.now() - started) / 1000;
    counts.set(counter.name, tokens);
    console.log(
      `tokenizer ${counter.name} on ${label}: ${(megabytes / seconds).toFixed(2)} MB/s (${tokens.toLocaleString('en-US')} tokens in ${megabytes.toFixed(1)} MB)`,
    );
  }
}

function tokenizerThroughput(): void {
  const generated = generateMessages({ targetChars: 2_000_000, seed: 11 })
    .messages.flatMap((message) => (typeof message.content === 'string' ? [message.content] : message.content.map((block) => JSON.stringify(block))))
    .join('\n');
  // js-tiktoken (a devDependency) is the reference BPE: what the one-pass estimate the engine uses saves.
  const encoder = new Tiktoken(o200kBase);
  const jsTiktoken: Counter = { name: 'js-tiktoken/o200k_base', count: (text) => encoder.encode(text, [], []).length };
  const counters = [jsTiktoken, estimateTokenizer, charEstimateTokenizer];
  throughput('generated text', generated, counters);
  throughput('recorded Claude Code request text', recordedRequestText(), counters);
}

const hundredK = contextOf(100_000);
report(
  `tier 1 on 100k tokens (${hundredK.items.length} items)`,
  timeIt(50, () => tierOne(hundredK)),
  '≤ 5 ms p95',
);
const million = contextOf(1_000_000);
report(
  `plan without LLM on 1M tokens (${million.items.length} items)`,
  timeIt(15, () => plan(million)),
  '≤ 100 ms',
);
report(
  `plan (manual, full ladder) on 1M tokens`,
  timeIt(10, () => plan(million, { trigger: 'manual' })),
  '≤ 100 ms',
);
// Small outputs: the same tokens in ~10k items, since the ladder's work grows with the item count.
const manyItems = contextOf(1_000_000, 0.08);
report(
  `plan without LLM on 1M tokens (${manyItems.items.length} items)`,
  timeIt(15, () => plan(manyItems)),
  '≤ 100 ms',
);
report(
  `plan (manual, full ladder) on 1M tokens (${manyItems.items.length} items)`,
  timeIt(10, () => plan(manyItems, { trigger: 'manual' })),
  '≤ 100 ms',
);
tokenizerThroughput();
