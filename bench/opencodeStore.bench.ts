// OpenCode at a heavy user's scale, measured on the shipped CLI (figures, not tests). Builds, in a
// private temp folder removed at the end, a ~2 MB database (6 sessions) and a ~400 MB one (1,002
// sessions: copies of the recorded `compaction` session, see support/opencodeDb.ts), then times
// `ctxlens inspect <one session>` and `ctxlens sessions --all` as whole processes under
// /usr/bin/time -v (wall seconds, peak RSS; median of RUNS), beside native ccusage's
// `opencode session` over the whole database (pointed at it with OPENCODE_DATA_DIR, on a copy of
// its own: ccusage opens the file with SQLite, which creates `-shm` and `-wal` beside it). Checks
// that our runs leave the database's bytes unchanged and create nothing beside it.
//
// Run with a Node that has node:sqlite (≥ 22.13; it builds the databases), after
// `npm run build:production`:
//   node --import tsx bench/opencodeStore.bench.ts [--cli dist/cli.js] [--before OLD/dist/cli.js]
//     [--node /path/to/node (runs the CLI; default this one)] [--ccusage /path/to/ccusage] [--runs 5]
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { buildOpencodeDb, type BuiltDb } from './support/opencodeDb';

const arg = (name: string, fallback: string): string => {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? (process.argv[index + 1] ?? fallback) : fallback;
};
const CLI = resolve(arg('cli', join(__dirname, '..', 'dist', 'cli.js')));
const BEFORE = arg('before', '');
const NODE = arg('node', process.execPath);
const CCUSAGE = arg('ccusage', join(homedir(), '.cache', 'context-lens', 'peers', 'node_modules', '@ccusage', 'ccusage-linux-x64', 'bin', 'ccusage'));
const RUNS = Number(arg('runs', '5'));

interface Figure {
  wallS: number;
  peakMiB: number;
  code: number | null;
}

/** One whole-process run under /usr/bin/time -v. */
function timed(command: string, args: readonly string[], env: NodeJS.ProcessEnv = process.env): Figure {
  const run = spawnSync('/usr/bin/time', ['-v', command, ...args], { env, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  const field = (name: string): number =>
    Number(
      new RegExp(`${name}: (.+)`)
        .exec(run.stderr)?.[1]
        ?.trim()
        .split(':')
        .reduce((total, part) => total * 60 + Number(part), 0) ?? NaN,
    );
  return {
    wallS: field('Elapsed \\(wall clock\\) time \\(h:mm:ss or m:ss\\)'),
    peakMiB: field('Maximum resident set size \\(kbytes\\)') / 1024,
    code: run.status,
  };
}

function median(command: string, args: readonly string[], env?: NodeJS.ProcessEnv): Figure {
  timed(command, args, env);
  const runs = Array.from({ length: RUNS }, () => timed(command, args, env));
  const middle = <T>(values: T[], key: (value: T) => number): number => values.map(key).sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;
  return { wallS: middle(runs, (run) => run.wallS), peakMiB: middle(runs, (run) => run.peakMiB), code: runs.find((run) => run.code !== 0)?.code ?? 0 };
}

const sha = (path: string): string => createHash('sha256').update(readFileSync(path)).digest('hex');
const row = (label: string, figure: Figure, yardstick?: Figure): string =>
  `${label.padEnd(44)} ${figure.wallS.toFixed(2).padStart(7)} s ${figure.peakMiB.toFixed(0).padStart(6)} MiB${yardstick === undefined ? '' : `  ${(figure.wallS / yardstick.wallS).toFixed(2)}× ccusage`}${figure.code === 0 ? '' : `  (exit ${figure.code})`}`;

function measure(name: string, built: BuiltDb, scratch: string): void {
  const mb = (statSync(built.path).size / 1e6).toFixed(0);
  // ccusage on a copy of its own: it writes -shm and -wal beside what it opens.
  const theirs = mkdtempSync(join(scratch, 'ccusage-'));
  copyFileSync(built.path, join(theirs, 'opencode.db'));
  const ccusage = existsSync(CCUSAGE)
    ? median(CCUSAGE, ['opencode', 'session', '--offline', '--json'], { ...process.env, OPENCODE_DATA_DIR: theirs })
    : undefined;
  const before = { sha: sha(built.path), files: readdirSync(resolve(built.path, '..')).sort() };
  console.log(`\n${name}: ${mb} MB, ${built.sessions} sessions (${NODE === process.execPath ? `node ${process.version}` : NODE})`);
  if (ccusage !== undefined) console.log(row('ccusage opencode session (whole database)', ccusage));
  for (const [label, cli] of [['after', CLI], ...(BEFORE === '' ? [] : [['before', resolve(BEFORE)]])] as const) {
    console.log(
      row(
        `${label}: inspect <one session>`,
        median(NODE, [cli, 'inspect', built.sessionId, '--agent', 'opencode', '--opencode-db', built.path, '--json']),
        ccusage,
      ),
    );
    console.log(
      row(`${label}: sessions --all`, median(NODE, [cli, 'sessions', '--all', '--agent', 'opencode', '--opencode-db', built.path, '--json']), ccusage),
    );
  }
  const after = { sha: sha(built.path), files: readdirSync(resolve(built.path, '..')).sort() };
  console.log(
    `database bytes unchanged: ${after.sha === before.sha}; files beside it: ${after.files.join(', ')}${after.files.join() === before.files.join() ? ' (none created)' : ` (were ${before.files.join(', ')})`}`,
  );
}

function main(): void {
  if (!existsSync(CLI)) throw new Error(`${CLI} missing: npm run build:production first`);
  const scratch = mkdtempSync(join(tmpdir(), 'cl-bench-opencode-'));
  try {
    for (const [name, sessions, repeats] of [
      ['small', 6, 12],
      ['heavy', 1002, 12],
    ] as const) {
      const folder = join(scratch, name);
      mkdirSync(folder);
      measure(name, buildOpencodeDb(folder, sessions, repeats), scratch);
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

main();
