// What a person's command costs, as whole processes (figures, not tests): `npm run bench`, after
// `npm run build:production`. Spawns the built dist/cli.js under /usr/bin/time on transcripts of
// 1, 10, 30 and 100 MB (bench/support/transcripts.ts) and prints each figure beside its floor
// (a bare `node -e 0`, a `tail -c 65536` of the file, a JSON.parse of every line) and the peer a
// person would otherwise run (ccusage, when CCUSAGE names its bin: not a dependency of ours), as
// ratios from the same run, pair by pair, medians of RUNS. A figure that misses its target is flagged.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../test/unit/sessions/claude-code/builders';
import { buildTranscript, MB, template } from './support/transcripts';

const RUNS = Number(process.env.RUNS ?? 5);
const CLI = join(__dirname, '..', 'dist', 'cli.js');
const SIZES = [1, 10, 30, 100];
const STATUS_INPUT = JSON.stringify({ context_window: { context_window_size: 200_000, used_percentage: 62, current_usage: { input_tokens: 10, cache_creation_input_tokens: 4_000, cache_read_input_tokens: 120_000 } } });

interface Sample {
  cpu: number;
  wall: number;
  peakMiB: number;
}

/**
 * One run under /usr/bin/time: user+sys seconds and peak resident memory from it; wall seconds
 * measured here (time's own wall figure has a 10 ms grain, and a `tail` takes less than that).
 */
function timed(command: string[], env: NodeJS.ProcessEnv = process.env, input = ''): Sample {
  const started = performance.now();
  const result = spawnSync('/usr/bin/time', ['-f', 'TIME %U %S %M', ...command], { env, input, maxBuffer: 256 * MB, encoding: 'utf8' });
  const wall = (performance.now() - started) / 1000;
  const line = result.stderr.trim().split('\n').findLast((text) => text.startsWith('TIME '));
  if (result.status !== 0 || line === undefined) throw new Error(`${command.join(' ')} failed (${result.status}): ${result.stderr.slice(-500)}`);
  const [user, sys, kib] = line.slice(5).split(' ').map(Number) as [number, number, number];
  return { cpu: user + sys, wall, peakMiB: kib / 1024 };
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;

/** A and B in turn after a warm-up each; medians of each and of the ratios A/B taken pair by pair. */
function pair(a: () => Sample, b: () => Sample): { a: Sample; b: Sample; cpuRatio: number; wallRatio: number; peakRatio: number; cpuDiff: number } {
  a();
  b();
  const as: Sample[] = [];
  const bs: Sample[] = [];
  for (let run = 0; run < RUNS; run++) {
    as.push(a());
    bs.push(b());
  }
  const pick = (samples: Sample[]): Sample => ({ cpu: median(samples.map((s) => s.cpu)), wall: median(samples.map((s) => s.wall)), peakMiB: median(samples.map((s) => s.peakMiB)) });
  return {
    a: pick(as),
    b: pick(bs),
    cpuRatio: median(as.map((s, index) => s.cpu / (bs[index] as Sample).cpu)),
    wallRatio: median(as.map((s, index) => s.wall / (bs[index] as Sample).wall)),
    peakRatio: median(as.map((s, index) => s.peakMiB / (bs[index] as Sample).peakMiB)),
    cpuDiff: median(as.map((s, index) => s.cpu - (bs[index] as Sample).cpu)),
  };
}

/** A difference of CPU seconds as "+20 ms" / "−10 ms" (CPU time has a 10 ms grain: noise shows as ±10). */
const signedMs = (seconds: number): string => `${seconds < 0 ? '−' : '+'}${Math.abs(seconds * 1000).toFixed(0)} ms`;

const rows: string[][] = [];
function row(figure: string, value: string, target: string, met: boolean | null): void {
  rows.push([figure, value, target, met === null ? '' : met ? 'ok' : 'MISSES']);
}

function main(): void {
  if (!existsSync(CLI)) throw new Error('dist/cli.js missing: run `npm run build:production` first');
  const dir = tempDir('cl-commands-bench-');
  // Our index of compactions is part of what a repeated command costs; it lives with the transcripts.
  const env = { ...process.env, CONTEXT_LENS_CACHE: join(dir, 'cache') };
  const lines = template();
  const files = new Map<number, string>();
  for (const size of SIZES) {
    // Each in a config folder of its own, as a peer that lists sessions finds it.
    const project = join(dir, `config-${size}`, 'projects', '-home-user-bench');
    mkdirSync(project, { recursive: true });
    const path = join(project, '9960bbf4-9712-4901-9c1e-600f03da49ad.jsonl');
    buildTranscript(lines, path, { bytes: size * MB, liveBytes: 256 * 1024, preserved: 'dangling' });
    files.set(size, path);
  }
  const node = (args: string[], input = '') => () => timed([process.execPath, ...args], env, input);
  const inspect = (size: number) => node([CLI, 'inspect', files.get(size) as string, '--json']);
  const bare = node(['-e', '0']);
  console.log(`Whole processes, ${RUNS} runs after a warm-up, medians; ratios pair by pair. Transcripts: chained copies of the recorded multi-prompt session, a compaction 256 KB before the end whose preserved segment is not in the file.\n`);

  const small = pair(inspect(1), bare);
  row('inspect --json, 1 MB / node -e 0 (CPU)', `${small.cpuRatio.toFixed(2)}x (${small.a.cpu.toFixed(3)} s vs ${small.b.cpu.toFixed(3)} s)`, '<= 3x', small.cpuRatio <= 3);
  const growth = pair(inspect(100), inspect(1));
  row('inspect --json, 100 MB - 1 MB (CPU)', signedMs(growth.cpuDiff), '<= 50 ms', growth.cpuDiff <= 0.05);
  row('inspect --json, peak 100 MB / 1 MB', `${growth.peakRatio.toFixed(2)}x (${growth.a.peakMiB.toFixed(0)} vs ${growth.b.peakMiB.toFixed(0)} MiB)`, '<= 1.5x', growth.peakRatio <= 1.5);
  const cold = pair(() => timed([process.execPath, CLI, 'inspect', files.get(100) as string, '--json'], { ...env, CONTEXT_LENS_CACHE: tempDir('cl-cold-') }), inspect(1));
  row('  the same, first read of the file (no index yet)', signedMs(cold.cpuDiff), '', null);
  const help = pair(node([CLI, '--help']), bare);
  row('--help / node -e 0 (CPU)', `${help.cpuRatio.toFixed(2)}x`, '<= 1.5x', help.cpuRatio <= 1.5);
  const status = pair(node([CLI, 'statusline'], STATUS_INPUT), node(['-e', '0'], STATUS_INPUT));
  row('statusline (cli.js) / node -e 0 (CPU)', `${status.cpuRatio.toFixed(2)}x`, '', null);

  const script = join(dir, 'parse-all.js');
  writeFileSync(script, "for (const line of require('fs').readFileSync(process.argv[2], 'utf8').split('\\n')) if (line) JSON.parse(line);");
  const ccusage = process.env.CCUSAGE;
  for (const size of SIZES) {
    const path = files.get(size) as string;
    const tail = pair(inspect(size), () => timed(['tail', '-c', '65536', path], env));
    const parse = pair(inspect(size), node([script, path]));
    // tail's CPU time is below what /usr/bin/time resolves: wall clock instead.
    row(`inspect ${size} MB / tail -c 65536 (floor, wall)`, `${tail.wallRatio.toFixed(1)}x (${(tail.a.wall * 1000).toFixed(0)} vs ${(tail.b.wall * 1000).toFixed(1)} ms)`, '', null);
    row(`inspect ${size} MB / JSON.parse of every line (floor)`, `${parse.cpuRatio.toFixed(2)}x`, '', null);
    if (ccusage === undefined) continue;
    const peer = pair(inspect(size), () => timed([process.execPath, ccusage, 'session', '--json', '--offline'], { ...env, CLAUDE_CONFIG_DIR: join(dir, `config-${size}`) }));
    row(`inspect ${size} MB / ccusage session (peer)`, `${peer.cpuRatio.toFixed(2)}x`, '< 1x', peer.cpuRatio < 1);
  }
  if (ccusage === undefined) console.log('(CCUSAGE=<path to ccusage\'s bin> adds the peer: npm install --prefix /tmp/peers ccusage@18.0.11)\n');
  const widths = [0, 1, 2].map((column) => Math.max(...rows.map((cells) => (cells[column] as string).length)));
  for (const cells of rows) console.log(cells.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join('  ').trimEnd());
  rmSync(dir, { recursive: true, force: true });
}

main();
