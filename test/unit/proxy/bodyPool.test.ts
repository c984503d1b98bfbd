import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BodyPool, POOLED_FROM_BYTES, sizeClass } from '../../../src/proxy/bodyPool';

describe('sizeClass', () => {
  it('is never smaller than the body and at most an eighth of a doubling larger', () => {
    for (const size of [POOLED_FROM_BYTES + 1, 100_000, 131_072, 131_073, 300_000, 1_000_000, 32 * 1024 * 1024]) {
      const capacity = sizeClass(size);
      assert.ok(capacity >= size, `${size} → ${capacity}`);
      assert.ok(capacity <= size * 1.125, `${size} → ${capacity}`);
    }
    assert.equal(sizeClass(1), POOLED_FROM_BYTES);
  });
});

describe('BodyPool', () => {
  it('gives shared memory of exactly the size asked', () => {
    const body = new BodyPool().take(300_000);
    assert.equal(body.length, 300_000);
    assert.ok(body.buffer instanceof SharedArrayBuffer);
  });

  it('reuses a buffer given back for the next body of about its size', () => {
    const pool = new BodyPool();
    const first = pool.take(300_000);
    pool.give(first);
    assert.equal(pool.freeHeld, first.buffer.byteLength);
    const next = pool.take(290_000);
    assert.equal(next.buffer, first.buffer);
    assert.equal(pool.freeHeld, 0);
  });

  it('takes the smallest free buffer up to twice the size, never a smaller one', () => {
    const pool = new BodyPool();
    const [small, big] = [pool.take(300_000), pool.take(500_000)];
    pool.give(big);
    pool.give(small);
    assert.notEqual(pool.take(600_000).buffer, big.buffer, 'too small for it');
    assert.equal(pool.take(200_000).buffer, small.buffer, 'the smaller one first');
    assert.equal(pool.take(270_000).buffer, big.buffer);
    pool.give(pool.take(1_000_000));
    assert.notEqual(pool.take(400_000).buffer.byteLength, sizeClass(1_000_000), 'over twice its size');
  });

  it('keeps every buffer given back while busy, and past its cap lets free ones go (largest first) before making one', () => {
    const dropped: SharedArrayBuffer[] = [];
    const pool = new BodyPool((memory) => dropped.push(memory), 4 * sizeClass(300_000));
    const bodies = [1, 2, 3].map(() => pool.take(300_000));
    const big = pool.take(400_000);
    for (const body of [...bodies, big]) pool.give(body);
    assert.equal(pool.freeHeld, 3 * sizeClass(300_000) + sizeClass(400_000), 'none let go');
    assert.deepEqual(dropped, []);
    const large = pool.take(600_000);
    assert.deepEqual(dropped, [big.buffer, bodies[2]!.buffer], 'free ones let go, the rewrite thread told');
    assert.ok(pool.held <= 4 * sizeClass(300_000));
    pool.give(large);
  });

  it('takes back only its own buffers in use, once; a discarded one is let go, never reused', () => {
    const dropped: SharedArrayBuffer[] = [];
    const pool = new BodyPool((memory) => dropped.push(memory));
    const body = pool.take(300_000);
    pool.give(body);
    pool.give(body);
    assert.equal(pool.freeHeld, sizeClass(300_000), 'a second give is ignored');
    pool.give(Buffer.from(new SharedArrayBuffer(300_000)));
    pool.give(Buffer.alloc(300_000));
    assert.equal(pool.freeHeld, sizeClass(300_000), 'not ours');
    const cut = pool.take(300_000);
    pool.discard(cut);
    assert.deepEqual(dropped, [cut.buffer]);
    assert.equal(pool.held, 0);
    assert.notEqual(pool.take(300_000).buffer, cut.buffer);
  });

  it('small bodies get an ordinary buffer of their own, never pooled', () => {
    const pool = new BodyPool();
    const small = pool.take(100);
    assert.equal(small.length, 100);
    assert.ok(!(small.buffer instanceof SharedArrayBuffer));
    pool.give(small);
    assert.equal(pool.freeHeld, 0);
  });

  it('lets its free buffers go once no body was taken for its idle time', async () => {
    const dropped: SharedArrayBuffer[] = [];
    const pool = new BodyPool((memory) => dropped.push(memory), undefined, 30);
    const body = pool.take(300_000);
    pool.give(body);
    assert.ok(pool.freeHeld > 0);
    await new Promise((resolve) => setTimeout(resolve, 80));
    assert.equal(pool.freeHeld, 0);
    assert.deepEqual(dropped, [body.buffer]);
  });
});
