import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { pruneRecall } from '../../../src/proxy/recallPrune';

const root = mkdtempSync(join(tmpdir(), 'cl-recall-prune-'));
after(() => rmSync(root, { recursive: true, force: true }));

const DAY = 86_400_000;
const NOW = Date.parse('2026-06-01T00:00:00Z');

/** A session folder of files `name → [bytes, age in days]`. */
function archive(dir: string, session: string, files: Record<string, [number, number]>): void {
  const folder = join(dir, session);
  mkdirSync(folder, { recursive: true });
  for (const [name, [bytes, days]] of Object.entries(files)) {
    writeFileSync(join(folder, name), Buffer.alloc(bytes));
    const at = new Date(NOW - days * DAY);
    utimesSync(join(folder, name), at, at);
  }
}

describe('pruneRecall', () => {
  it('removes outputs past the age, then the oldest past a session’s size and the total, and empty folders', async () => {
    const dir = join(root, 'a');
    archive(dir, 'session-old', { 'a.txt': [10, 30], 'b.txt': [10, 20] });
    archive(dir, 'session-big', { 'new.txt': [60, 0], 'mid.txt': [60, 1], 'old.txt': [60, 2] });
    archive(dir, 'session-small', { 'x.txt': [50, 3], 'x.txt.123.tmp': [5, 1] });
    const removed = await pruneRecall(dir, { maxAgeMs: 14 * DAY, maxSessionBytes: 130, maxTotalBytes: 160 }, NOW);
    assert.equal(removed, 5);
    assert.ok(!existsSync(join(dir, 'session-old')), 'an emptied session folder goes');
    assert.deepEqual(readdirSync(join(dir, 'session-big')).sort(), ['mid.txt', 'new.txt']);
    // 120 bytes kept in session-big; x.txt (older) would make 170, past 160 in all; the hour-old temp is stale.
    assert.ok(!existsSync(join(dir, 'session-small')));
  });

  it('leaves a folder within its limits alone, and a missing one is no error', async () => {
    const dir = join(root, 'b');
    archive(dir, 'session-1', { 'a.txt': [10, 1], 'a.txt.1.tmp': [1, 0] });
    assert.equal(await pruneRecall(dir, undefined, NOW), 0);
    assert.equal(readdirSync(join(dir, 'session-1')).length, 2);
    assert.equal(await pruneRecall(join(root, 'none'), undefined, NOW), 0);
  });
});
