// The line readers stay bounded on a file that never ends its line: forward and backward, a line
// over the cap is skipped (its bytes read, never held) and reported; the lines around it are intact.
import assert from 'node:assert/strict';
import { open, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { GIVE_UP_LINE_BYTES, LineSplitter, scanLines } from '../../../../src/sessions/common/lines';
import { linesBackward } from '../../../../src/sessions/common/tail';
import { tempDir } from '../../../support/tempDir';

function split(text: string, chunk: number, max: number): { lines: string[]; skipped: [number, number, number][] } {
  const lines: string[] = [];
  const skipped: [number, number, number][] = [];
  const splitter = new LineSplitter(0, 1, (line, offset, end) => skipped.push([line, offset, end]), max);
  const bytes = Buffer.from(text);
  for (let at = 0; at < bytes.length; at += chunk) splitter.push(bytes.subarray(at, at + chunk), (line) => lines.push(line.toString()));
  const pending = splitter.takePending();
  if (pending) lines.push(pending.bytes.toString());
  return { lines, skipped };
}

describe('LineSplitter with a line cap', () => {
  it('skips lines over the cap, in any chunking, and numbers and places every line', () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ unit: fc.constantFrom('a', 'b', 'é'), maxLength: 40 }), { minLength: 1, maxLength: 12 }),
        fc.integer({ min: 1, max: 17 }),
        (texts, chunk) => {
          const max = 10;
          const { lines, skipped } = split(texts.join('\n'), chunk, max);
          const long = texts.map((text, index) => [index, Buffer.byteLength(text)] as const).filter(([, length]) => length > max);
          assert.deepEqual(
            skipped.map(([line]) => line),
            long.map(([index]) => index + 1),
          );
          const fits = (text: string): boolean => Buffer.byteLength(text) <= max;
          // Every line ended by a newline, then the last one if it has any bytes.
          const last = texts.at(-1) ?? '';
          assert.deepEqual(lines, [...texts.slice(0, -1).filter(fits), ...(last !== '' && fits(last) ? [last] : [])]);
          // Each skipped line is placed where it is in the file.
          for (const [line, offset] of skipped)
            assert.equal(
              offset,
              Buffer.byteLength(
                texts
                  .slice(0, line - 1)
                  .map((text) => `${text}\n`)
                  .join(''),
              ),
            );
        },
      ),
    );
  });
});

describe('linesBackward with a line cap and a floor', () => {
  it('hands out an oversized line empty and flagged, and stops at the floor without a partial line', async () => {
    const path = join(tempDir('cl-tail-'), 'file.jsonl');
    // Over the cap (100) but under twice it: skipped, and reading goes on past it.
    await writeFile(path, `first\n${'x'.repeat(150)}\nlast\n`);
    const handle = await open(path, 'r');
    try {
      const { size } = await handle.stat();
      const all = [];
      for await (const line of linesBackward(handle, size, { blockBytes: 16, maxLineBytes: 100 }))
        all.push([line.bytes.toString(), line.oversized === true, line.offset]);
      assert.deepEqual(all, [
        ['last', false, 157],
        ['', true, 6],
        ['first', false, 0],
      ]);
      const near = [];
      for await (const line of linesBackward(handle, size, { blockBytes: 16, floor: size - 50 })) near.push(line.bytes.toString());
      assert.deepEqual(near, ['last']);
    } finally {
      await handle.close();
    }
  });
});

describe('a file with no newline for gigabytes (a sparse hole)', () => {
  const GiB = 1024 * 1024 * 1024;
  async function sparse(): Promise<string> {
    const path = join(tempDir('cl-sparse-'), 'x.jsonl');
    await writeFile(path, '');
    const { truncate } = await import('node:fs/promises');
    await truncate(path, 2 * GiB);
    return path;
  }

  it('a forward scan gives up past GIVE_UP_LINE_BYTES: one oversized line to the end, not 2 GB read', async () => {
    const path = await sparse();
    const skipped: [number, number, number][] = [];
    let visited = 0;
    const began = performance.now();
    const end = await scanLines(path, { oversized: (line, offset, stop) => skipped.push([line, offset, stop]) }, () => visited++);
    assert.deepEqual(skipped, [[1, 0, 2 * GiB]]);
    assert.equal(visited, 0);
    assert.deepEqual(end, { nextOffset: 2 * GiB, nextLine: 2, size: 2 * GiB });
    assert.ok(performance.now() - began < 5_000);
    assert.ok(GIVE_UP_LINE_BYTES < GiB);
  });

  it('a backward read hands out one oversized line from where it stopped and reads nothing older', async () => {
    const path = await sparse();
    const handle = await open(path, 'r');
    try {
      const lines = [];
      for await (const line of linesBackward(handle, 2 * GiB, { maxLineBytes: 1024 * 1024 })) lines.push(line);
      assert.equal(lines.length, 1);
      assert.equal(lines[0]?.oversized, true);
      assert.equal(lines[0]?.terminated, false);
      assert.ok((lines[0]?.offset ?? 0) >= 2 * GiB - 3 * 1024 * 1024);
    } finally {
      await handle.close();
    }
  });
});
