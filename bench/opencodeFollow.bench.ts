// The panel following one session of a heavy user's OpenCode database while OpenCode appends turns
// (figures, not tests; the test is test/integration/opencodeFollowHeavy.test.ts). Builds, in a
// private temp folder removed at the end, the ~400 MB database of support/opencodeDb.ts (1,002
// sessions), then follows its newest copy through the host's path (test/support/opencodeFollowProbe.ts,
// bundled) in a process of its own while a writer (node:sqlite, WAL, connection held open as
// OpenCode's) appends TURNS turns, and prints per turn: from the turn's last commit to the host's
// reads done, the follower's CPU, the bytes it read against what the turn wrote to the log, and the peak RSS.
//
//   node --import tsx bench/opencodeFollow.bench.ts [--turns 12] [--node /path/to/node (runs the follower)]
//     [--sqlite-node /path/to/node ≥ 22.13 (builds and writes; default: this one, else the pinned 26.12.1)]
//     [--before /path/to/other/checkout (its sources bundled into the same probe: a before figure)]
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { buildBigDb, bundleProbe, followWhileAppending, type FollowFigures } from '../test/support/opencodeFollow';
import { ensureNodeRuntime, NEWEST_LTS } from '../test/support/nodeRuntimes';

const arg = (name: string, fallback: string): string => {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? (process.argv[index + 1] ?? fallback) : fallback;
};
const TURNS = Number(arg('turns', '12'));
const NODE = arg('node', process.execPath);
const hasSqlite = Number(process.versions.node.split('.')[0]) >= 23 || process.versions.node >= '22.13';
const SQLITE_NODE = arg('sqlite-node', hasSqlite ? process.execPath : ensureNodeRuntime(NEWEST_LTS).node);
const BEFORE = arg('before', '');

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;
const kib = (bytes: number): string => `${(bytes / 1024).toFixed(0)} KiB`;

function report(label: string, figures: FollowFigures): void {
  const turns = figures.turns;
  console.log(
    `${label.padEnd(8)} first read ${figures.initial.ms.toFixed(0)} ms, ${kib(figures.initial.bytesRead)}; per turn (median of ${turns.length}): ` +
      `${median(turns.map((turn) => turn.latencyMs)).toFixed(0)} ms commit → host's reads done, ${median(turns.map((turn) => turn.cpuMs)).toFixed(0)} ms CPU, ` +
      `${kib(median(turns.map((turn) => turn.bytesRead)))} read for ${kib(median(turns.map((turn) => turn.walBytes)))} written to the log ` +
      `(max ${kib(Math.max(...turns.map((turn) => turn.bytesRead)))}); peak RSS ${figures.maxRssMiB.toFixed(0)} MiB`,
  );
}

async function main(): Promise<void> {
  const scratch = mkdtempSync(join(tmpdir(), 'cl-bench-oc-follow-'));
  try {
    const db = buildBigDb(SQLITE_NODE, scratch);
    console.log(
      `Following one session of a ${(statSync(db.path).size / 1e6).toFixed(0)} MB OpenCode database (1,002 sessions) while ${TURNS} turns are appended; follower on ${NODE === process.execPath ? `node ${process.version}` : NODE}\n`,
    );
    let firstTurn = 1;
    for (const [label, root] of [...(BEFORE === '' ? [] : [['before', resolve(BEFORE)]]), ['after', resolve(__dirname, '..')]] as const) {
      const figures = await followWhileAppending({
        node: NODE,
        writerNode: SQLITE_NODE,
        probe: bundleProbe(root),
        db: db.path,
        sessionId: db.sessionId,
        turns: TURNS,
        firstTurn,
        firstPrompt: 8000 + firstTurn * 1000,
      });
      report(label, figures);
      firstTurn += TURNS;
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

void main();
