import assert from 'node:assert/strict';
import { DEMO_SESSION } from '../../../support/demoSession';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import {
  breakEvenOf,
  costViewOf,
  itemUsdOf,
  pricesOf,
  readAudits,
  readCosts,
  withBreakEven,
  withCacheMisses,
  withCallCosts,
  withItemCosts,
} from '../../../../src/host/context/costs';
import { planViewOf } from '../../../../src/host/context/derive';
import { livePlan } from '../../../../src/host/context/liveSnapshot';
import { snapshotOf } from './snapshotOf';
import { engineOptionsOf } from '../../../../src/host/engineOptions';
import { SETTING_DEFAULTS } from '../../../../src/host/settingDefaults';
import { costViewSchema, type Preview, type TimelinePoint } from '../../../../src/protocol/messages';
import { readSessionInfo } from '../../../../src/sessions/claude-code/listing';

const DEMO = DEMO_SESSION;
const LONG_DEMO = join(
  __dirname,
  '..',
  '..',
  '..',
  'fixtures',
  'claude-code',
  'long-demo',
  'projects',
  '-home-user-payments-demo',
  'c6b61ed8-d74f-49a3-9726-211b52f81b9b.jsonl',
);
/** The demo's model has no bundled price: the e2e demo gives it Sonnet 4.5's, as here. */
const SONNET_PRICES = { 'claude-sonnet-5-5': { input: 3, output: 15, cacheWrite: 3.75, cacheWrite1h: 6, cacheRead: 0.3 } };

async function demo() {
  const info = await readSessionInfo(DEMO);
  assert.ok(info.ok);
  const { read, handle } = await snapshotOf(info.value, 40_000);
  assert.ok(read.ok);
  return { snapshot: read.value, handle };
}

describe("the panel's costs", () => {
  it("prices every item of the map, groups the file reads costliest first, and the shares add up to the prompts' cost", async () => {
    const { snapshot, handle } = await demo();
    const { prices, pricesProblem } = pricesOf(SONNET_PRICES);
    assert.equal(pricesProblem, null);
    const report = await readCosts(prices, handle, snapshot);
    const view = costViewOf(report, pricesProblem);
    assert.ok(costViewSchema.safeParse(view).success);
    assert.ok(view.sessionUsd > 0 && view.calls > 0);
    assert.deepEqual(view.unpriced, []);
    // Grouped by file: costliest first, each with its reads, tokens now and cost so far.
    assert.ok(view.byResource.length > 0);
    for (const [a, b] of view.byResource.slice(1).map((group, k) => [view.byResource[k]!, group] as const)) assert.ok(a.usd >= b.usd);
    assert.ok(
      view.byResource.some((group) => group.file && group.count >= 2),
      'the demo re-reads a file',
    );
    // Named as the map's labels name them: relative to the workspace.
    const named = costViewOf(report, null, snapshot.context.workspace);
    assert.ok(
      named.byResource.some((group) => group.resource.startsWith('src/')),
      named.byResource.map((group) => group.resource).join(', '),
    );

    const plan = planViewOf(snapshot.context, livePlan(snapshot, { engine: engineOptionsOf(SETTING_DEFAULTS, 60), compactionFocus: '' }), 1);
    const regions = withItemCosts(plan.regions, itemUsdOf(report));
    assert.ok(regions.every((region) => region.usd !== undefined && region.usd >= 0));
    const carried = regions.reduce((sum, region) => sum + (region.usd ?? 0), 0) + report.context.unassignedUsd;
    assert.ok(Math.abs(carried - report.context.promptUsd) < 1e-9 * Math.max(1, report.context.promptUsd), `${carried} vs ${report.context.promptUsd}`);
  });

  it('a model without a price: tokens only, no $0.00 on the items, "no price" on the timeline, no break-even', async () => {
    const { snapshot, handle } = await demo();
    const { prices } = pricesOf({});
    const report = await readCosts(prices, handle, snapshot);
    const view = costViewOf(report, null);
    assert.deepEqual(view.unpriced, ['claude-sonnet-5-5']);
    assert.equal(view.sessionUsd, 0);
    assert.equal(itemUsdOf(report), null);
    const plan = planViewOf(snapshot.context, livePlan(snapshot, { engine: engineOptionsOf(SETTING_DEFAULTS, 60), compactionFocus: '' }), 1);
    assert.ok(withItemCosts(plan.regions, itemUsdOf(report)).every((region) => region.usd === undefined));
    const at = report.calls[0]!.at!;
    assert.deepEqual(withCallCosts([{ at, usedTokens: 10, event: null }], report.calls)[0]!.usd, null);
    assert.equal(breakEvenOf(prices, snapshot, 30_000, 10_000), null);
  });

  it("says the session's cache health under the gauge and marks the call that missed on the timeline, by its instant (issue 39)", async () => {
    // The long demo: Claude Code's own /compact, after which the next call rewrote its history to the cache.
    const info = await readSessionInfo(LONG_DEMO);
    assert.ok(info.ok);
    const { read, handle } = await snapshotOf(info.value, 40_000);
    assert.ok(read.ok);
    const { prices } = pricesOf(SONNET_PRICES);
    const report = await readCosts(prices, handle, read.value);
    const view = costViewOf(report, null);
    assert.ok(costViewSchema.safeParse(view).success);
    assert.match(view.cache?.sentence ?? '', /^cache \d+ % · 1 miss cost \$\d+\.\d\d, a compaction$/);
    assert.deepEqual(
      report.cache.misses.map((miss) => miss.cause),
      ['compaction'],
    );
    const at = report.cache.misses[0]!.at!;
    // The miss is dated as its call on the live chain is (the response's newest line): the timeline's point joins it.
    assert.ok(
      read.value.live.calls.some((call) => call.at === at),
      at,
    );
    // The timeline's point is dated by the response's first line, a few milliseconds before its newest.
    const points: TimelinePoint[] = [
      { at: new Date(Date.parse(at) - 3).toISOString(), usedTokens: 100, event: null },
      { at: '2020-01-01T00:00:00Z', usedTokens: 50, event: null },
      { at: new Date(Date.parse(at) + 60_000).toISOString(), usedTokens: 120, event: null },
    ];
    const marked = withCacheMisses(points, report);
    assert.match(marked[0]!.cacheMiss?.label ?? '', /^cache miss after a compaction: \+\$\d/);
    assert.equal(marked[0]!.cacheMiss?.cause, 'compaction');
    assert.equal(marked[1]!.cacheMiss, undefined);
    assert.equal(marked[2]!.cacheMiss, undefined);
  });

  it("audits the agent's own compaction for History, by its id, once (issue 39)", async () => {
    const dir = join(__dirname, '..', '..', '..', 'fixtures', 'claude-code', 'compact-audit', 'projects', '-home-user-payments-audit');
    const info = await readSessionInfo(join(dir, 'c6546f91-05eb-4b3c-895f-ea3eaa4f650b.jsonl'));
    assert.ok(info.ok);
    const { read, handle } = await snapshotOf(info.value, 40_000);
    assert.ok(read.ok);
    const audits = await readAudits(read.value);
    assert.equal(audits.length, 1);
    assert.equal(audits[0]?.id, read.value.live.compactions[0]?.uuid);
    assert.equal(audits[0]?.sentence, 'dropped 1 rule, 1 decision');
    const { prices } = pricesOf({});
    assert.ok(costViewSchema.safeParse({ ...costViewOf(await readCosts(prices, handle, read.value), null), audits }).success);
    // Read once: the second call gives the same objects back.
    assert.equal((await readAudits(read.value))[0], audits[0]);
  });

  it("puts each call's cost on its timeline point, joined by the response's time; compaction marks get none", () => {
    const calls = [
      { at: '2026-01-01T00:00:01Z', model: 'm', usd: 0.25 },
      { at: '2026-01-01T00:00:02Z', model: 'm', usd: 0.5 },
    ];
    const points: TimelinePoint[] = [
      { at: '2026-01-01T00:00:01Z', usedTokens: 100, event: null },
      { at: '2026-01-01T00:00:02Z', usedTokens: 200, event: { kind: 'agent', label: 'compacted' } },
      { at: '2026-01-01T00:00:02Z', usedTokens: 200, event: null },
      { at: '2026-01-01T00:00:09Z', usedTokens: 300, event: null },
    ];
    assert.deepEqual(
      withCallCosts(points, calls).map((point) => point.usd),
      [0.25, undefined, 0.5, undefined],
    );
    assert.deepEqual(withCallCosts(points, null), points);
  });

  it("the preview's break-even line is at the latest priced call's cache prices", async () => {
    const { snapshot } = await demo();
    const { prices } = pricesOf(SONNET_PRICES);
    const figures = breakEvenOf(prices, snapshot, 30_000, 10_000);
    assert.ok(figures);
    // Written once at $3.75 instead of read at $0.30 per million; 20,000 removed tokens saved at $0.30.
    assert.ok(Math.abs(figures.oneOffUsd - 10_000 * 3.45e-6) < 1e-12);
    assert.ok(Math.abs(figures.savingPerCallUsd - 20_000 * 0.3e-6) < 1e-12);
    assert.equal(figures.breakEvenCalls, 6);
    assert.equal(figures.sentence, 'costs $0.03 once, saves $0.0060 per call: pays off after 6 calls');
    const preview = { beforeTokens: 30_000, afterTokens: 10_000, breakEven: null } as unknown as Preview;
    assert.deepEqual(withBreakEven(preview, prices, snapshot)?.breakEven, figures);
    assert.equal(withBreakEven(preview, prices, null), preview);
  });

  it('refuses a wrong price setting whole, says why, and keeps the bundled prices', () => {
    const refused = pricesOf({ 'my-model': { input: 'cheap', output: 1 } });
    assert.match(refused.pricesProblem ?? '', /contextLens\.cost\.prices.*input must be a number/);
    assert.ok(refused.prices.table.models.every((model) => model.model !== 'my-model'));
    const taken = pricesOf({ 'my-model': { input: 1, output: 2 } });
    assert.equal(taken.pricesProblem, null);
    assert.equal(taken.prices.table.models[0]!.model, 'my-model');
  });
});
