import assert from 'node:assert/strict';
import { open } from 'node:fs/promises';
import { describe, it } from 'node:test';
import { isCompactBoundary } from '../../../../src/sessions/claude-code/records';
import { readCompactionHistory, TailScan } from '../../../../src/sessions/claude-code/scan';
import { basicSession, tempDir } from './builders';

/** A long conversation, one compaction, a short live context with a request Claude Code recorded. */
async function scanOf() {
  const builder = basicSession();
  for (let turn = 0; turn < 200; turn++) builder.user(`older prompt ${turn}`);
  builder.compact('summary', { postTokens: 500 });
  builder.record({ type: 'api-request-blob', hash: 'h-live', message: { role: 'user', content: 'after' } });
  builder.record({ type: 'api-request', id: 'r-live', base: null, keep: 0, tail: ['h-live', 'h-never-written'], shapeHash: 's' });
  builder.user('after');
  const path = builder.write(tempDir());
  const handle = await open(path, 'r');
  const stats = await handle.stat();
  const history = await readCompactionHistory(handle, path, false, stats);
  return { scan: new TailScan(handle, path, stats.size, history.lastLine), history, lines: builder.lines.length, handle };
}

describe('TailScan', () => {
  it('reads back only to the last compaction, with real line numbers, and indexes replay records on the way', async () => {
    const { scan, history, lines, handle } = await scanOf();
    try {
      assert.equal(history.lastLine, lines);
      assert.equal(await scan.readUntil(({ record }) => isCompactBoundary(record)), true);
      // The api-request line (lines - 1) and the blob are indexed, not parsed: the request is parsed when asked for.
      assert.deepEqual(
        scan.records.map((located) => located.line),
        [lines, lines - 3, lines - 4],
      );
      const requests = [];
      for await (const request of scan.requestsNewestFirst()) requests.push([request.record.id, request.line]);
      assert.deepEqual(requests, [['r-live', lines - 1]]);
      assert.equal(scan.records.at(-1)?.line, history.compactions[0]?.line);
      assert.equal(scan.atStart, false);
      assert.ok(scan.has('requests', 'r-live') && scan.has('blobs', 'h-live'));
    } finally {
      await handle.close();
    }
  });

  it('looks for a missing replay record no further back than asked', async () => {
    const { scan, history, handle } = await scanOf();
    try {
      await scan.readUntil(({ record }) => isCompactBoundary(record));
      assert.equal(await scan.find('blobs', 'h-never-written', history.compactions[0]?.offset), undefined);
      assert.equal(scan.atStart, false, 'a blob Claude Code did not write is not looked for before the compaction');
      assert.equal(await scan.find('shapes', 's'), undefined);
      assert.equal(scan.atStart, false, 'a record that is nowhere in the file is found absent by a byte search, its lines not read');
    } finally {
      await handle.close();
    }
  });

  it('finds replay records far back, with their line numbers, reading lines only down to the oldest of them', async () => {
    const builder = basicSession();
    builder.record({ type: 'api-request-blob', hash: 'h-old', message: { role: 'user', content: 'first' } });
    const oldLine = builder.lines.length;
    for (let turn = 0; turn < 200; turn++) builder.user(`prompt ${turn}`);
    builder.record({ type: 'api-request-blob', hash: 'h-new', message: { role: 'user', content: 'last' } });
    const newLine = builder.lines.length;
    builder.user('after');
    const path = builder.write(tempDir());
    const handle = await open(path, 'r');
    try {
      const stats = await handle.stat();
      const history = await readCompactionHistory(handle, path, false, stats);
      assert.ok(history.blobs.mayHave('h-old') && history.blobs.mayHave('h-new'));
      const scan = new TailScan(handle, path, stats.size, history.lastLine, history.blobs);
      await scan.findAll('blobs', ['h-new', 'h-never-written']);
      assert.equal((await scan.find('blobs', 'h-new'))?.line, newLine);
      assert.equal(scan.atStart, false, 'h-never-written is not in the file: no line before h-new is read');
      assert.equal((await scan.find('blobs', 'h-old'))?.line, oldLine);
    } finally {
      await handle.close();
    }
  });
});
