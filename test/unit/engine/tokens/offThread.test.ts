import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { TokenCountWorker } from '../../../../src/engine/tokens/offThread';
import { handleCountRequest } from '../../../../src/engine/tokens/worker';

describe('token counting off the main thread', () => {
  it('answers a request in-process', () => {
    assert.deepEqual(handleCountRequest({ id: 7, texts: ['hello world', ''] }), { id: 7, counts: [2, 0] });
  });

  it('counts in a worker thread', async () => {
    // The host runs the bundled JavaScript; here the TypeScript entry is loaded through tsx's require hook.
    const entry = fileURLToPath(new URL('../../../../src/engine/tokens/worker.ts', import.meta.url));
    const worker = new TokenCountWorker(`require('tsx/cjs'); require(${JSON.stringify(entry)});`, { eval: true });
    try {
      const [a, b] = await Promise.all([worker.count(['hello world']), worker.count(['a', 'hello world again'])]);
      assert.deepEqual(a, [2]);
      assert.equal(b?.length, 2);
    } finally {
      await worker.close();
    }
  });
});
