import assert from 'node:assert/strict';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it, mock } from 'node:test';
import { ChangeSignal, SerialRunner } from '../../../../src/sessions/common/watch';
import { tempDir } from '../claude-code/builders';

describe('ChangeSignal', () => {
  let fired = 0;
  let signal: ChangeSignal;

  beforeEach(() => {
    mock.timers.enable({ apis: ['setTimeout', 'setInterval'] });
    fired = 0;
    // A path that does not exist: no fs.watch, only what the test schedules.
    signal = new ChangeSignal(join(tempDir(), 'absent.jsonl'), { debounceMs: 50, pollMs: 60_000 }, () => fired++);
  });

  afterEach(() => {
    signal.dispose();
    mock.timers.reset();
  });

  it('fires the first change at once, then coalesces a burst into one trailing fire', () => {
    signal.schedule();
    assert.equal(fired, 1, 'leading edge: no wait');
    for (let change = 0; change < 10; change++) signal.schedule();
    assert.equal(fired, 1);
    mock.timers.tick(50);
    assert.equal(fired, 2, 'one trailing fire for the burst');
    mock.timers.tick(50);
    assert.equal(fired, 2, 'nothing more once quiet');
    signal.schedule();
    assert.equal(fired, 3, 'after a quiet window the next change fires at once again');
  });

  it('a steady stream of changes fires once per window, not never', () => {
    signal.schedule();
    for (let step = 0; step < 20; step++) {
      mock.timers.tick(10);
      signal.schedule();
    }
    // 200 ms of changes every 10 ms: the leading fire plus one per 50 ms window.
    assert.equal(fired, 5);
  });

  it('dispose drops a pending trailing fire', () => {
    signal.schedule();
    signal.schedule();
    signal.dispose();
    mock.timers.tick(100);
    assert.equal(fired, 1);
    signal.schedule();
    assert.equal(fired, 1);
  });
});

describe('SerialRunner', () => {
  it('a request during a run causes exactly one more run', async () => {
    let runs = 0;
    let release: () => void = () => undefined;
    const runner = new SerialRunner(async () => {
      runs++;
      if (runs === 1) await new Promise<void>((resolve) => (release = resolve));
    });
    const first = runner.request();
    const second = runner.request();
    const third = runner.request();
    assert.equal(second, first);
    assert.equal(third, first);
    release();
    await first;
    assert.equal(runs, 2);
  });

  it('after a failed run the next request runs the task again', async () => {
    let runs = 0;
    const runner = new SerialRunner(async () => {
      runs++;
      if (runs === 1) throw new Error('EACCES');
    });
    await assert.rejects(runner.request(), /EACCES/);
    await runner.request();
    assert.equal(runs, 2);
  });

  it('a failure of an unawaited request is not an unhandled rejection', async () => {
    const unhandled: unknown[] = [];
    const listener = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', listener);
    try {
      const runner = new SerialRunner(() => Promise.reject(new Error('gone')));
      void runner.request();
      void runner.request();
      await new Promise((resolve) => setTimeout(resolve, 20));
      assert.deepEqual(unhandled, []);
    } finally {
      process.off('unhandledRejection', listener);
    }
  });
});
