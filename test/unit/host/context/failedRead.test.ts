// The panel's read of a followed Kilo session that meets the database mid-write once (the Kilo e2e
// failed 1 run in 4 so: after a second `kilo run` the gauge followed, the cost line and timeline
// stayed on the run before). The follower retries its own failed reads at its next poll and then
// sees the fill it already reported, so no new change comes; the read the panel made for that
// change must be made again on its own, and the handle must not hand back the failure it kept.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { readCosts, pricesOf } from '../../../../src/host/context/costs';
import { readSnapshot, type LiveSnapshot } from '../../../../src/host/context/liveSnapshot';
import { ReadScheduler, RETRY_FIRST_MS, type ReadOutcome } from '../../../../src/host/context/readScheduler';
import { openSession } from '../../../../src/sessions/handle/open';
import { kiloAdapter } from '../../../../src/sessions/kilo/adapter';
import { kiloFixture } from '../../../support/contract/kilo';
import { tempDir } from '../../../support/tempDir';

const dir = tempDir('cl-failed-read-');
const TOOLS = 'ses_de04758b6ffe4pjQ3kkOFPuxHv';

/** Kilo's recorded tools session, its database written whole, then cut in half as a reader may meet it mid-write. */
async function tornKilo(name: string) {
  const db = kiloFixture('tools', `${dir}/${name}`);
  const whole = readFileSync(db);
  const info = await kiloAdapter.readSessionInfo(`${db}#${TOOLS}`);
  assert.ok(info.ok, JSON.stringify(info));
  return {
    info: info.value,
    tear: () => writeFileSync(db, whole.subarray(0, Math.floor(whole.length / 2))),
    mend: () => writeFileSync(db, whole),
  };
}

describe('a read of the followed session that fails once', () => {
  it('is read again by the handle at the next ask, though no new change came', async () => {
    const kilo = await tornKilo('handle');
    const handle = openSession(kiloAdapter, kilo.info);
    try {
      kilo.tear();
      const failed = await handle.liveContext();
      assert.equal(failed.ok, false, 'a database cut in half reads');
      kilo.mend();
      const again = await handle.liveContext();
      assert.ok(again.ok, `the failure was kept for the change: ${JSON.stringify(!again.ok && again.error)}`);
      assert.equal(again.value.live.calls.length, 6);
      const calls = await handle.calls();
      assert.ok(calls.ok);
    } finally {
      await handle.dispose();
    }
  });

  it("is made again by the panel's scheduler until the snapshot and its costs land, with no new change", async () => {
    const kilo = await tornKilo('panel');
    const handle = openSession(kiloAdapter, kilo.info);
    const { prices } = pricesOf(undefined);
    let shown: { snapshot: LiveSnapshot; calls: number } | null = null;
    let reads = 0;
    let failed = 0;
    // What ContextModel.readOnce does, without vscode: the snapshot, then its costs.
    const read = async (): Promise<ReadOutcome> => {
      reads++;
      const snapshot = await readSnapshot(handle);
      if (!snapshot.ok) {
        failed++;
        return 'failed';
      }
      const report = await readCosts(prices, handle, snapshot.value);
      shown = { snapshot: snapshot.value, calls: report.session.calls };
      return 'done';
    };
    const scheduler = new ReadScheduler(read, 10, () => undefined);
    try {
      kilo.tear();
      scheduler.request(true);
      await until(() => failed === 1, 'failed first read');
      kilo.mend();
      // Nothing requests another read: the scheduler must make it.
      await until(() => shown !== null, 'snapshot after the failed read', RETRY_FIRST_MS * 4);
      assert.equal(reads, 2);
      assert.equal(failed, 1);
      assert.equal((shown as { calls: number } | null)?.calls, 6);
    } finally {
      scheduler.dispose();
      await handle.dispose();
    }
  });
});

async function until(check: () => boolean, what: string, timeoutMs = 5_000): Promise<void> {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > timeoutMs) throw new Error(`no ${what} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
