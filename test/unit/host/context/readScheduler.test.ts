import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it, mock } from 'node:test';
import { ReadScheduler, RETRY_FIRST_MS, RETRY_TIMES, type ReadOutcome } from '../../../../src/host/context/readScheduler';

/** A read that stays under way until the test ends it. */
function reads(): { count: () => number; finish: () => Promise<void>; read: () => Promise<void> } {
  let started = 0;
  const pending: (() => void)[] = [];
  return {
    count: () => started,
    read: () => {
      started++;
      return new Promise((resolve) => pending.push(resolve));
    },
    // Lets the scheduler see the end of the read and start the next one, if any.
    finish: async () => {
      pending.shift()?.();
      for (let turn = 0; turn < 3; turn++) await Promise.resolve();
    },
  };
}

/** A scheduler whose reads do not fail: a failure reported is a test failure. */
const unexpected = (error: unknown): void => assert.fail(`unexpected read failure: ${String(error)}`);

describe('ReadScheduler', () => {
  beforeEach(() => mock.timers.enable({ apis: ['setTimeout'] }));
  afterEach(() => mock.timers.reset());

  it('reads a session the first time at once, without waiting for the debounce', () => {
    const probe = reads();
    new ReadScheduler(probe.read, 300, unexpected).request(true);
    assert.equal(probe.count(), 1);
  });

  it('reads a burst of changes once, the debounce after the first of them', () => {
    const probe = reads();
    const scheduler = new ReadScheduler(probe.read, 300, unexpected);
    scheduler.request(false);
    mock.timers.tick(200);
    scheduler.request(false);
    assert.equal(probe.count(), 0);
    mock.timers.tick(100);
    assert.equal(probe.count(), 1);
    mock.timers.tick(1000);
    assert.equal(probe.count(), 1);
  });

  it('never reads twice at once: requests during a read make one more read after it', async () => {
    const probe = reads();
    const scheduler = new ReadScheduler(probe.read, 300, unexpected);
    scheduler.request(true);
    scheduler.request(true);
    scheduler.request(true);
    assert.equal(probe.count(), 1);
    await probe.finish();
    assert.equal(probe.count(), 2);
    await probe.finish();
    assert.equal(probe.count(), 2);
  });

  it('a first read replaces a pending debounced one', () => {
    const probe = reads();
    const scheduler = new ReadScheduler(probe.read, 300, unexpected);
    scheduler.request(false);
    scheduler.request(true);
    mock.timers.tick(300);
    assert.equal(probe.count(), 1);
  });

  it('reads nothing once disposed', () => {
    const probe = reads();
    const scheduler = new ReadScheduler(probe.read, 300, unexpected);
    scheduler.request(false);
    scheduler.dispose();
    mock.timers.tick(300);
    scheduler.request(true);
    assert.equal(probe.count(), 0);
  });

  it('a read that throws is reported, not left an unhandled rejection, and the read asked for during it still happens', async () => {
    const failures: unknown[] = [];
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown): void => void unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      let calls = 0;
      let fail: (error: Error) => void = () => undefined;
      const read = (): Promise<void> => {
        calls++;
        return calls === 1 ? new Promise((_, reject) => (fail = reject)) : Promise.resolve();
      };
      const scheduler = new ReadScheduler(read, 300, (error) => failures.push(error));
      scheduler.request(true);
      scheduler.request(true);
      fail(new Error('EIO: the disk went away'));
      await new Promise((resolve) => setImmediate(resolve));
      assert.deepEqual(
        failures.map((error) => (error as Error).message),
        ['EIO: the disk went away'],
      );
      assert.equal(calls, 2, 'the read requested during the failed one still ran');
      assert.deepEqual(unhandled, []);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  it('makes a failed read again later, each wait twice the last, a few times at most', async () => {
    let count = 0;
    const scheduler = new ReadScheduler(
      () => {
        count++;
        return Promise.resolve<ReadOutcome>('failed');
      },
      300,
      unexpected,
    );
    scheduler.request(true);
    await settle();
    assert.equal(count, 1);
    for (let retry = 0; retry < RETRY_TIMES; retry++) {
      mock.timers.tick(RETRY_FIRST_MS * 2 ** retry - 1);
      await settle();
      assert.equal(count, 1 + retry, `retry ${retry + 1} came early`);
      mock.timers.tick(1);
      await settle();
      assert.equal(count, 2 + retry);
    }
    mock.timers.tick(RETRY_FIRST_MS * 2 ** (RETRY_TIMES + 2));
    await settle();
    assert.equal(count, 1 + RETRY_TIMES);
    scheduler.dispose();
  });

  it('stops retrying once a read lands, and a new change starts the retries over', async () => {
    const outcomes: ReadOutcome[] = ['failed', 'done', 'failed', 'failed', 'done'];
    let count = 0;
    const scheduler = new ReadScheduler(() => Promise.resolve(outcomes[count++] ?? 'done'), 300, unexpected);
    scheduler.request(true);
    await settle();
    mock.timers.tick(RETRY_FIRST_MS);
    await settle();
    assert.equal(count, 2);
    mock.timers.tick(RETRY_FIRST_MS * 100);
    await settle();
    assert.equal(count, 2);
    scheduler.request(true);
    await settle();
    mock.timers.tick(RETRY_FIRST_MS);
    await settle();
    assert.equal(count, 4);
    // The second failure in a row waits twice as long; a change meanwhile reads after its debounce instead.
    scheduler.request(false);
    mock.timers.tick(300);
    await settle();
    assert.equal(count, 5);
    mock.timers.tick(RETRY_FIRST_MS * 100);
    await settle();
    assert.equal(count, 5);
    scheduler.dispose();
  });

  it('counts a read that throws as failed, and retries nothing once disposed', async () => {
    let count = 0;
    const scheduler = new ReadScheduler(
      () => {
        count++;
        return Promise.reject(new Error('torn'));
      },
      300,
      () => undefined,
    );
    scheduler.request(true);
    await settle();
    mock.timers.tick(RETRY_FIRST_MS);
    await settle();
    assert.equal(count, 2);
    scheduler.dispose();
    mock.timers.tick(RETRY_FIRST_MS * 100);
    await settle();
    assert.equal(count, 2);
  });
});

/** Lets the scheduler see a read's end (a few promise turns). */
async function settle(): Promise<void> {
  for (let turn = 0; turn < 5; turn++) await Promise.resolve();
}
