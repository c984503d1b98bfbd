// Status line start-up cost (figures, not a test): `npx tsx bench/statusline.bench.ts`. Spawns a bare
// `node -e 0` and the production `dist/statusline.js` bundle N times each, interleaved so machine
// noise hits both alike, and prints the medians and their difference (target: ≤ 20 ms).
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildSync } from 'esbuild';

const RUNS = 30;
const INPUT = JSON.stringify({
  context_window: {
    context_window_size: 200_000,
    used_percentage: 62,
    current_usage: { input_tokens: 10, cache_creation_input_tokens: 4_000, cache_read_input_tokens: 120_000 },
  },
});

const bin = join(mkdtempSync(join(tmpdir(), 'cl-statusline-bench-')), 'statusline.js');
buildSync({
  entryPoints: [join(__dirname, '..', 'src', 'cli', 'statuslineMain.ts')],
  bundle: true,
  minify: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  outfile: bin,
  logLevel: 'silent',
});

function timed(args: string[]): number {
  const started = performance.now();
  const result = spawnSync(process.execPath, args, { input: INPUT });
  if (result.status !== 0) throw new Error(`node ${args.join(' ')} exited ${result.status}`);
  return performance.now() - started;
}

const median = (samples: number[]): number => [...samples].sort((a, b) => a - b)[Math.floor(samples.length / 2)] ?? 0;

const bare: number[] = [];
const statusline: number[] = [];
for (let run = 0; run < RUNS; run++) {
  bare.push(timed(['-e', '0']));
  statusline.push(timed([bin]));
}
console.log(`node -e 0:          median ${median(bare).toFixed(1)} ms (${RUNS} runs)`);
console.log(`dist/statusline.js: median ${median(statusline).toFixed(1)} ms (${RUNS} runs)`);
console.log(`difference:         ${(median(statusline) - median(bare)).toFixed(1)} ms (target ≤ 20 ms)`);
