// Engine benchmarks: prints figures, asserts nothing. Run with `npx tsx bench/engine.bench.ts`.
// Contexts come from the same seeded generator the tests use (repeated Reads, Bash, Grep, edits).
import { contextFromMessages } from '../src/engine/fromMessages';
import { runSupersede } from '../src/engine/ladder/supersede';
import type { Context } from '../src/engine/model';
import { resolveOptions } from '../src/engine/options';
import { ladderState, plan } from '../src/engine/plan';
import { defaultTokenizer } from '../src/engine/tokens/cache';
import { charEstimateTokenizer, TiktokenTokenizer } from '../src/engine/tokens/tokenizer';
import { generateMessages } from '../test/unit/engine/support/generate';

function percentile(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

function contextOf(tokens: number): Context {
  // Build with the exact tokenizer so item sizes are realistic; the plan then never re-counts them.
  return contextFromMessages({ ...generateMessages({ targetChars: tokens * 4, seed: 7 }), windowTokens: tokens, usedTokens: tokens, tokenizer: defaultTokenizer() });
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
  runSupersede(ladderState(context, resolveOptions({ trigger: 'manual' }), defaultTokenizer()));
}

function report(label: string, samples: number[], target: string): void {
  console.log(`${label}: p50 ${percentile(samples, 50).toFixed(2)} ms, p95 ${percentile(samples, 95).toFixed(2)} ms (target ${target}; ${samples.length} runs)`);
}

function tokenizerThroughput(): void {
  const sample = generateMessages({ targetChars: 2_000_000, seed: 11 })
    .messages.flatMap((message) => (typeof message.content === 'string' ? [message.content] : message.content.map((block) => JSON.stringify(block))))
    .join('\n');
  const megabytes = Buffer.byteLength(sample) / 1_048_576;
  for (const tokenizer of [new TiktokenTokenizer(), charEstimateTokenizer]) {
    tokenizer.count('warm up');
    const started = performance.now();
    const tokens = tokenizer.count(sample);
    const seconds = (performance.now() - started) / 1000;
    console.log(`tokenizer ${tokenizer.name}: ${(megabytes / seconds).toFixed(2)} MB/s (${tokens.toLocaleString('en-US')} tokens in ${megabytes.toFixed(1)} MB)`);
  }
  const cached = defaultTokenizer();
  const chunks = sample.match(/[\s\S]{1,4000}/g) ?? [];
  chunks.forEach((chunk) => cached.count(chunk));
  const started = performance.now();
  chunks.forEach((chunk) => cached.count(chunk));
  console.log(`tokenizer ${cached.name} (all hits): ${(megabytes / ((performance.now() - started) / 1000)).toFixed(1)} MB/s`);
}

const hundredK = contextOf(100_000);
report(`tier 1 on 100k tokens (${hundredK.items.length} items)`, timeIt(50, () => tierOne(hundredK)), '≤ 5 ms p95');
const million = contextOf(1_000_000);
report(`plan without LLM on 1M tokens (${million.items.length} items)`, timeIt(15, () => plan(million)), '≤ 100 ms');
report(`plan (manual, full ladder) on 1M tokens`, timeIt(10, () => plan(million, { trigger: 'manual' })), '≤ 100 ms');
tokenizerThroughput();
