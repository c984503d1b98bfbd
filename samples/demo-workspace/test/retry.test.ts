import assert from 'node:assert/strict';
import test from 'node:test';
import { HttpError, withRetry } from '../src/retry';

test('makes one attempt plus `retries` retries', async () => {
  let calls = 0;
  const result = await withRetry(async () => {
    calls++;
    if (calls < 4) throw new HttpError(503);
    return 'ok';
  }, { retries: 3, baseDelayMs: 1 });
  assert.equal(result, 'ok');
  assert.equal(calls, 4);
});

test('does not retry client errors', async () => {
  let calls = 0;
  await assert.rejects(withRetry(async () => {
    calls++;
    throw new HttpError(404);
  }, { retries: 3, baseDelayMs: 1 }));
  assert.equal(calls, 1);
});
