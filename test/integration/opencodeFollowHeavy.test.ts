// The panel follows a session of a heavy user's OpenCode database live (issue 38's Done-when): a
// 400 MB database of 1,002 sessions (bench/support/opencodeDb.ts), one session followed by the
// host's path (the registry's adapter, openSession, readSnapshot and readCosts as ContextModel makes
// them) bundled as the extension is and run under each shipped runtime, while a writer appends turns
// as OpenCode does (its rows committed to the log by a connection held open). Each turn's fill and
// newest entry reach the host; the follower's peak RSS stays bounded; what it reads per turn is about
// the pages the turn wrote, not the session again nor the database.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { buildBigDb, bundleProbe, followWhileAppending, type BigDb } from '../support/opencodeFollow';
import { ensureNodeRuntime, NEWEST_LTS, shippedRuntimes } from '../support/nodeRuntimes';

const TURNS = 5;
const MAX_RSS_MIB = 150;
/** The follower's debounce is 150 ms; on two shared cores a turn is read within a second or two. */
const MAX_MEDIAN_LATENCY_MS = 3_000;

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;

describe('OpenCode: the panel follows a session of a 400 MB database live', { timeout: 300_000 }, () => {
  let folder: string;
  let db: BigDb;
  let probe: string;
  // node:sqlite (the writer's) is in the newest LTS, not in Node 20.
  const writerNode = ensureNodeRuntime(NEWEST_LTS).node;

  before(() => {
    folder = mkdtempSync(join(tmpdir(), 'cl-oc-heavy-'));
    db = buildBigDb(writerNode, folder);
    probe = bundleProbe();
  });
  after(() => rmSync(folder, { recursive: true, force: true }));

  shippedRuntimes().forEach((runtime, index) => {
    it(`updates the fill with each appended turn, reading about the pages it wrote (node ${runtime.version})`, async () => {
      const firstTurn = 1 + index * TURNS;
      const figures = await followWhileAppending({
        node: runtime.node,
        writerNode,
        probe,
        db: db.path,
        sessionId: db.sessionId,
        turns: TURNS,
        firstTurn,
        firstPrompt: 8000 + index * 10_000,
      });
      const label = `node ${runtime.version}: ${JSON.stringify(figures.turns)}`;
      assert.equal(figures.turns.length, TURNS, label);
      for (const turn of figures.turns) {
        // The turn's answer is the newest entry the host read, with its call's prompt as the fill.
        assert.equal(turn.lastRef, `msg_~${String(turn.turn).padStart(4, '0')}b`, label);
        // Its new frames (and the index and table pages above them), not the session's ~900 KB again.
        assert.ok(turn.bytesRead <= 2 * turn.walBytes + 64 * 1024, `turn ${turn.turn} read ${turn.bytesRead} bytes for ${turn.walBytes} written: ${label}`);
      }
      assert.ok(figures.maxRssMiB < MAX_RSS_MIB, `peak RSS ${figures.maxRssMiB.toFixed(1)} MiB: ${label}`);
      const latency = median(figures.turns.map((turn) => turn.latencyMs));
      assert.ok(latency < MAX_MEDIAN_LATENCY_MS, `median ${latency.toFixed(0)} ms from a turn's commit to the host's reads done: ${label}`);
    });
  });
});
