import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { inBackground } from '../../../src/host/background';

const settled = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('inBackground', () => {
  it('logs what failed instead of leaving an unhandled rejection', async () => {
    const warnings: string[] = [];
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown): void => void unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      inBackground(Promise.reject(new Error('secret storage locked')), { warn: (message) => warnings.push(message) }, 'Set API Key');
      inBackground(Promise.reject('a string'), { warn: (message) => warnings.push(message) }, 'Compact…');
      await settled();
      await settled();
      assert.deepEqual(warnings, ['Set API Key failed: secret storage locked', 'Compact… failed: a string']);
      assert.deepEqual(unhandled, []);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  it('says nothing when the work succeeds', async () => {
    const warnings: string[] = [];
    inBackground(Promise.resolve(1), { warn: (message) => warnings.push(message) }, 'x');
    await settled();
    assert.deepEqual(warnings, []);
  });
});
