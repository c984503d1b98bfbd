// A short line is handed over whole without the byte loop: the same lines and offsets, however the
// bytes arrive, as when every byte goes through it.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { StringEliding } from '../../../../src/sessions/common/elidedLines';

type Seen = Array<[string | null, number]>;

function cut(bytes: Buffer, chunk: number, keepBytes: number, maxLineBytes: number): Seen {
  const seen: Seen = [];
  const eliding = new StringEliding({ keepBytes, maxLineBytes });
  for (let at = 0; at < bytes.length; at += chunk) eliding.push(bytes.subarray(at, at + chunk), (text, end) => void seen.push([text, end]));
  return seen;
}

describe('StringEliding', () => {
  it('gives the same lines whole as byte by byte (short lines skip the loop, long ones go through it)', () => {
    const value = fc.oneof(
      fc.string({ maxLength: 30 }),
      fc.string({ unit: 'grapheme', maxLength: 200 }),
      fc.constantFrom('\\"\t\u00e9\ud83d\ude00'.repeat(30)),
    );
    fc.assert(
      fc.property(
        fc.array(fc.dictionary(fc.constantFrom('a', 'text', 'type'), value), { minLength: 1, maxLength: 8 }),
        fc.integer({ min: 16, max: 600 }),
        fc.integer({ min: 64, max: 4096 }),
        fc.integer({ min: 1, max: 5000 }),
        (records, keepBytes, maxLineBytes, chunk) => {
          const bytes = Buffer.from(`${records.map((record) => JSON.stringify(record)).join('\n')}\n`);
          const bytewise = cut(bytes, 1, keepBytes, maxLineBytes);
          assert.deepEqual(cut(bytes, bytes.length, keepBytes, maxLineBytes), bytewise);
          assert.deepEqual(cut(bytes, chunk, keepBytes, maxLineBytes), bytewise);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('hands a line no longer than keepBytes over as written', () => {
    const line = JSON.stringify({ type: 'user', text: 'héllo "quoted"' });
    assert.deepEqual(cut(Buffer.from(`${line}\n`), 1 << 16, 64, 1024), [[line, Buffer.byteLength(line) + 1]]);
  });
});
