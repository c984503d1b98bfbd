// What a person's command costs, as whole processes (figures, not tests): `npm run bench`, after
// `npm run build:production`. Spawns the built dist/cli.js and dist/statusline.js under
// /usr/bin/time on transcripts of 1, 10 and 100 MB (bench/support/transcripts.ts), each with a
// compact boundary 256 KB before its end and without one (a new chain starts 2 MB before the end,
// the older conversation ending at its own root), and prints each figure beside its floor (a bare
// `node -e 0`) and the peer a person would otherwise run (ccusage's `session --json --offline`,
// when CCUSAGE names its binary: not a dependency of ours), as ratios from the same run, pair by
// pair, medians of RUNS. Every target is a row marked ok or MISSES; the wall-clock medians are drawn
// as a bar chart, media/bench/commands.svg (barChart.ts).
import { spawn, spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { tempDir } from '../test/unit/sessions/claude-code/builders';
import { barChart, type BarGroup } from './support/barChart';
import { buildTranscript, MB, template } from './support/transcripts';

const RUNS = Number(process.env.RUNS ?? 7);
const DIST = join(__dirname, '..', 'dist');
const CLI = join(DIST, 'cli.js');
const STATUSLINE = join(DIST, 'statusline.js');
const CHART = join(__dirname, '..', 'media', 'bench', 'commands.svg');
const SIZES = [1, 10, 100];
const KINDS = [
  { id: 'boundary', label: 'compact boundary', options: { liveBytes: 256 * 1024, preserved: 'dangling' as const } },
  { id: 'rooted', label: 'no boundary', options: { rootBytes: 2 * MB } },
] as const;
const STATUS_INPUT = JSON.stringify({
  context_window: {
    context_window_size: 200_000,
    used_percentage: 62,
    current_usage: { input_tokens: 10, cache_creation_input_tokens: 4_000, cache_read_input_tokens: 120_000 },
  },
});

interface Sample {
  cpu: number;
  wall: number;
  peakMiB: number;
}

/**
 * One run under /usr/bin/time: user+sys seconds and peak resident memory from it; wall seconds
 * measured here (time's own wall figure has a 10 ms grain).
 */
function timed(command: string[], env: NodeJS.ProcessEnv = process.env, input = ''): Sample {
  const started = performance.now();
  const result = spawnSync('/usr/bin/time', ['-f', 'TIME %U %S %M', ...command], { env, input, maxBuffer: 256 * MB, encoding: 'utf8' });
  const wall = (performance.now() - started) / 1000;
  const line = result.stderr
    .trim()
    .split('\n')
    .findLast((text) => text.startsWith('TIME '));
  if (result.status !== 0 || line === undefined) throw new Error(`${command.join(' ')} failed (${result.status}): ${result.stderr.slice(-500)}`);
  const [user, sys, kib] = line.slice(5).split(' ').map(Number) as [number, number, number];
  return { cpu: user + sys, wall, peakMiB: kib / 1024 };
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;

interface Paired {
  a: Sample;
  b: Sample;
  cpuRatio: number;
  wallRatio: number;
  peakRatio: number;
}

/** A and B in turn after a warm-up each; medians of each and of the ratios A/B taken pair by pair. */
function pair(a: () => Sample, b: () => Sample): Paired {
  a();
  b();
  const as: Sample[] = [];
  const bs: Sample[] = [];
  for (let run = 0; run < RUNS; run++) {
    as.push(a());
    bs.push(b());
  }
  const pick = (samples: Sample[]): Sample => ({
    cpu: median(samples.map((s) => s.cpu)),
    wall: median(samples.map((s) => s.wall)),
    peakMiB: median(samples.map((s) => s.peakMiB)),
  });
  const ratio = (key: keyof Sample): number => median(as.map((s, index) => s[key] / (bs[index] as Sample)[key]));
  return { a: pick(as), b: pick(bs), cpuRatio: ratio('cpu'), wallRatio: ratio('wall'), peakRatio: ratio('peakMiB') };
}

const ms = (seconds: number): string => `${(seconds * 1000).toFixed(0)} ms`;

const rows: string[][] = [];
const misses: string[] = [];
/** A figure; with a target, `met` says whether it holds and a miss is named again at the end. */
function row(figure: string, value: string, target = '', met: boolean | null = null): void {
  rows.push([figure, value, target, met === null ? '' : met ? 'ok' : 'MISSES']);
  if (met === false) misses.push(`${figure}: ${value} (target ${target})`);
}

/** "1.32x wall (412 vs 312 ms), 1.40x CPU": the wall ratio is what the targets hold, CPU beside it. */
const versus = (paired: Paired): string =>
  `${paired.wallRatio.toFixed(2)}x wall (${ms(paired.a.wall)} vs ${ms(paired.b.wall)}), ${paired.cpuRatio.toFixed(2)}x CPU`;

/** `ctxlens resident` as the extension starts it for its terminals; stopped by closing its stdin. */
async function startResident(env: NodeJS.ProcessEnv, socket: string) {
  const child = spawn(process.execPath, [CLI, 'resident', '--socket', socket], { env, stdio: ['pipe', 'pipe', 'inherit'] });
  await new Promise<void>((settle, reject) => {
    child.stdout.once('data', () => settle());
    child.once('exit', (code) => reject(new Error(`ctxlens resident exited (${code})`)));
  });
  return {
    /** Resident memory now, MiB (the reader stays; its memory is what keeping it costs). */
    rssMiB: (): number => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1] ?? NaN) / 1024,
    stop: (): Promise<unknown> =>
      new Promise((settle) => {
        child.once('exit', settle);
        child.stdin.end();
      }),
  };
}

async function main(): Promise<void> {
  if (!existsSync(CLI) || !existsSync(STATUSLINE)) throw new Error('dist/cli.js or dist/statusline.js missing: run `npm run build:production` first');
  const dir = tempDir('cl-commands-bench-');
  // Our indexes and compiled code are part of what a repeated command costs; they live with the transcripts.
  const env = { ...process.env, CONTEXT_LENS_CACHE: join(dir, 'cache') };
  const lines = template();
  const files = new Map<string, { path: string; config: string }>();
  for (const kind of KINDS) {
    for (const size of SIZES) {
      // Each in a config folder of its own, as a peer that lists sessions finds it.
      const config = join(dir, `config-${kind.id}-${size}`);
      const project = join(config, 'projects', '-home-user-bench');
      mkdirSync(project, { recursive: true });
      const path = join(project, '9960bbf4-9712-4901-9c1e-600f03da49ad.jsonl');
      buildTranscript(lines, path, { bytes: size * MB, ...kind.options });
      files.set(`${kind.id}-${size}`, { path, config });
    }
  }
  const node =
    (args: string[], input = '') =>
    () =>
      timed([process.execPath, ...args], env, input);
  const inspect = (key: string) => node([CLI, 'inspect', (files.get(key) as { path: string }).path, '--json']);
  // In a VS Code terminal: the extension's resident reader answers (host/ResidentCli.ts).
  const socket = join(dir, 'cache', 'run', 'bench.sock');
  const resident = await startResident(env, socket);
  const inTerminal = (key: string) => () =>
    timed([process.execPath, CLI, 'inspect', (files.get(key) as { path: string }).path, '--json'], { ...env, CONTEXT_LENS_RESIDENT: socket });
  const bare = node(['-e', '0']);
  const ccusage = process.env.CCUSAGE;
  const peer = (key: string) => () =>
    timed([ccusage as string, 'session', '--json', '--offline'], { ...env, CLAUDE_CONFIG_DIR: (files.get(key) as { config: string }).config });
  const load = loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');
  console.log(`Whole processes, ${RUNS} runs after a warm-up, medians; ratios pair by pair. Load average before: ${load}.`);
  console.log(
    'Transcripts: chained copies of the recorded multi-prompt session; "compact boundary": a compaction 256 KB before the end whose preserved segment is not in the file; "no boundary": a new conversation starts 2 MB before the end.\n',
  );

  const groups: BarGroup[] = [];
  for (const kind of KINDS) {
    for (const size of SIZES) {
      const key = `${kind.id}-${size}`;
      const served = pair(inTerminal(key), bare);
      row(`inspect --json in a VS Code terminal (resident reader), ${size} MB, ${kind.label} / node -e 0`, versus(served), '<= 1.5x', served.wallRatio <= 1.5);
      const floor = pair(inspect(key), bare);
      row(`  inspect --json on its own (no VS Code), ${size} MB, ${kind.label} / node -e 0`, versus(floor), '<= 1.5x', floor.wallRatio <= 1.5);
      const bars = [
        { label: 'node -e 0', ms: floor.b.wall * 1000 },
        { label: 'inspect --json, VS Code terminal', ms: served.a.wall * 1000 },
        { label: 'inspect --json, on its own', ms: floor.a.wall * 1000 },
      ];
      if (ccusage !== undefined) {
        const against = pair(inTerminal(key), peer(key));
        const alone = pair(inspect(key), peer(key));
        const target = size === 100 ? '< 1x' : '';
        row(
          `inspect --json in a VS Code terminal, ${size} MB, ${kind.label} / ccusage session (native)`,
          versus(against),
          target,
          size === 100 ? against.wallRatio < 1 : null,
        );
        row(
          `  inspect --json on its own, ${size} MB, ${kind.label} / ccusage session (native)`,
          versus(alone),
          target,
          size === 100 ? alone.wallRatio < 1 : null,
        );
        bars.push({ label: 'ccusage session (native)', ms: against.b.wall * 1000 });
      }
      groups.push({ label: `${size} MB, ${kind.label}`, bars });
    }
    // The file just written to (one bookkeeping line appended before each run, outside the timing):
    // nothing kept applies, the reader reads the session's tail again.
    const grown = files.get(`${kind.id}-100`) as { path: string };
    const line = `${readFileSync(grown.path, 'utf8').slice(0, 4096).split('\n')[0] as string}\n`;
    const appended = (run: () => Sample) => () => {
      appendFileSync(grown.path, line);
      return run();
    };
    const changed = pair(appended(inTerminal(`${kind.id}-100`)), bare);
    row(`  inspect --json in a VS Code terminal, 100 MB, ${kind.label}, just appended to / node -e 0`, versus(changed));
    const changedAlone = pair(appended(inspect(`${kind.id}-100`)), bare);
    row(`  inspect --json on its own, 100 MB, ${kind.label}, just appended to / node -e 0`, versus(changedAlone));
    const growth = pair(inspect(`${kind.id}-100`), inspect(`${kind.id}-1`));
    row(
      `inspect --json on its own, peak memory 100 MB / 1 MB, ${kind.label}`,
      `${growth.peakRatio.toFixed(2)}x (${growth.a.peakMiB.toFixed(0)} vs ${growth.b.peakMiB.toFixed(0)} MiB)`,
      '<= 1.2x',
      growth.peakRatio <= 1.2,
    );
  }
  row('  the resident reader itself, after all of the above', `${resident.rssMiB().toFixed(0)} MiB resident`);
  await resident.stop();
  const cold = pair(
    () =>
      timed([process.execPath, CLI, 'inspect', (files.get('boundary-100') as { path: string }).path, '--json'], {
        ...env,
        CONTEXT_LENS_CACHE: mkdtempSync(join(dir, 'cold-')),
      }),
    bare,
  );
  row('  inspect --json, 100 MB, first read of the file (no index, no code cache) / node -e 0', versus(cold));
  const status = pair(node([STATUSLINE], STATUS_INPUT), node(['-e', '0'], STATUS_INPUT));
  row('statusline (dist/statusline.js) / node -e 0', versus(status), '<= 1.2x', status.wallRatio <= 1.2);
  const help = pair(node([CLI, '--help']), bare);
  row('--help / node -e 0', versus(help));
  if (ccusage === undefined)
    console.log(
      "(CCUSAGE=<path to ccusage's native binary> adds the peer: npm install --prefix /tmp/peers ccusage@20.0.24, then node_modules/@ccusage/ccusage-linux-x64/bin/ccusage)\n",
    );

  const widths = [0, 1, 2].map((column) => Math.max(...rows.map((cells) => (cells[column] as string).length)));
  for (const cells of rows)
    console.log(
      cells
        .map((cell, column) => cell.padEnd(widths[column] ?? 0))
        .join('  ')
        .trimEnd(),
    );
  console.log(misses.length === 0 ? '\nEvery target holds.' : `\nMisses:\n${misses.map((miss) => `  ${miss}`).join('\n')}`);
  console.log(
    `Load average after: ${loadavg()
      .map((value) => value.toFixed(2))
      .join(' ')}.`,
  );
  mkdirSync(join(CHART, '..'), { recursive: true });
  writeFileSync(CHART, barChart(groups, `Wall time, median of ${RUNS} runs, same machine and run (load average ${load})`));
  console.log(`Chart: ${CHART}`);
  rmSync(dir, { recursive: true, force: true });
}

void main();
