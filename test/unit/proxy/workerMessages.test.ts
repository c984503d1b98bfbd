import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { piecesOf, splicedOver } from '../../../src/proxy/workerMessages';

const sharedBuffer = (size: number): Buffer => Buffer.from(new SharedArrayBuffer(size));

describe('splicedOver / piecesOf', () => {
  const raw = sharedBuffer(64);
  raw.write('{"messages":[{"role":"user","content":"a long tool output here"}]}'.slice(0, 64));
  // A stub as scan.ts makes it: a small Buffer, in Node's shared pool of small buffers.
  const stub = Buffer.from('"[stub]"');
  const pieces = [raw.subarray(0, 39), stub, raw.subarray(63)];

  it("says the request's pieces by place and copies only the new bytes, into a buffer of their own", () => {
    const body = splicedOver(raw, pieces);
    assert.deepEqual(body.spans, [0, 0, 39, 1, 0, stub.length, 0, 63, 64]);
    assert.equal(body.inserted.buffer.byteLength, stub.length, 'not the 8 KB pool the stub lives in');
  });

  it("gives back the same bytes as views of the proxy's own request, not a copy", () => {
    const back = piecesOf(raw, splicedOver(raw, pieces));
    assert.ok(Buffer.concat(back).equals(Buffer.concat(pieces)));
    assert.equal(back[0]!.buffer, raw.buffer);
    assert.equal(back[2]!.buffer, raw.buffer);
  });

  it('reads a request that is a view inside a larger buffer (a pooled one) by its own offsets', () => {
    const memory = sharedBuffer(200);
    const inside = memory.subarray(50, 114);
    raw.copy(inside);
    const body = splicedOver(inside, [inside.subarray(0, 39), stub, inside.subarray(63)]);
    assert.deepEqual(
      body.spans.filter((_, index) => index % 3 !== 0),
      [0, 39, 0, stub.length, 63, 64],
    );
    assert.ok(Buffer.concat(piecesOf(inside, body)).equals(Buffer.concat(pieces)));
  });
});
