// Issue 39, item 1: cache health on every real published session (and those recorded here). Every
// miss has a cause (`unknown` at worst), and the misses' dollars are exactly what the session paid
// beyond the same calls each hitting the cache: a hit reads what the previous call sent, out of what
// the call paid for in full (computed here apart from the module, from the issue's own definition).
import assert from 'node:assert/strict';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { MISS_CAUSES } from '../../../src/pricing/cache/cacheHealth';
import { BUNDLED_PRICES } from '../../../src/pricing/bundledPrices';
import { promptOf, type CallUsage } from '../../../src/pricing/callCost';
import { indexPrices } from '../../../src/pricing/prices';
import { sessionCost } from '../../../src/pricing/sessionCost';
import { identifyFile } from '../../../src/sessions/agents';
import { costReport } from '../../../src/sessions/costReport';
import { engineContextOf } from '../../../src/sessions/engineContext';
import type { SessionCall } from '../../../src/sessions/types';
import { claudeTranscripts } from '../../support/claudeFixtures';
import { codexRollouts } from '../../support/codexFixtures';
import { tempDir } from '../../support/tempDir';

// Our own index of what was read goes to a throwaway folder, not the person's cache.
process.env.CONTEXT_LENS_CACHE = tempDir('cl-cache-health-');

const GEMINI = join(__dirname, '..', '..', 'fixtures', 'gemini');

function geminiChats(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) return geminiChats(path);
    return /^session-.*\.jsonl$/.test(name) || (folder.includes('published') && name.endsWith('.json')) ? [path] : [];
  });
}

const sessions = [
  ...claudeTranscripts().map(({ name, path }) => ({ name: `claude-code/${name}`, path })),
  ...codexRollouts().map(({ name, path }) => ({ name: `codex/${name}/${path.split('/').at(-1)}`, path })),
  ...geminiChats(GEMINI).map((path) => ({ name: `gemini/${path.slice(GEMINI.length + 1)}`, path })),
];

const index = indexPrices(BUNDLED_PRICES);

/** The calls as hits: each that read less than half of what the previous one sent reads what both share instead. */
function allHitting(calls: readonly SessionCall[]): SessionCall[] {
  if (!calls.some((call) => call.usage.cacheReadInputTokens > 0)) return [...calls];
  return calls.map((call, k) => {
    const previous = k === 0 ? 0 : promptOf((calls[k - 1] as SessionCall).usage);
    const usage = call.usage;
    if (previous < 1024 || usage.cacheReadInputTokens * 2 >= previous) return call;
    const shared = Math.max(0, Math.min(Math.min(previous, promptOf(usage)) - usage.cacheReadInputTokens, usage.cacheCreationInputTokens + usage.inputTokens));
    const hour = Math.min(usage.cacheWrite1hTokens ?? 0, usage.cacheCreationInputTokens);
    const fromWrite = Math.min(usage.cacheCreationInputTokens, shared);
    const hit: CallUsage = {
      ...usage,
      cacheReadInputTokens: usage.cacheReadInputTokens + shared,
      cacheCreationInputTokens: usage.cacheCreationInputTokens - fromWrite,
      inputTokens: usage.inputTokens - (shared - fromWrite),
    };
    if (usage.cacheWrite1hTokens !== undefined) hit.cacheWrite1hTokens = hour - Math.min(hour, shared);
    return { ...call, usage: hit };
  });
}

describe('cache health over the corpus (issue 39)', () => {
  let missesSeen = 0;
  for (const { name, path } of sessions) {
    it(name, async () => {
      const { adapter } = await identifyFile(path);
      assert.ok(adapter, 'no agent reads ' + path);
      const info = await adapter.readSessionInfo(path);
      assert.ok(info.ok);
      const live = await adapter.readLiveContext(info.value);
      assert.ok(live.ok);
      const report = await costReport(index, adapter, live.value, engineContextOf(live.value));
      const read = await adapter.readSessionCalls(info.value);
      assert.ok(read.ok);
      const sequence = read.value.sequence ?? read.value.calls;
      // One by one, every call of the file's main chain.
      assert.ok(sequence.every((call) => call.count === undefined));
      assert.equal(report.cache.calls, sequence.length);
      const { cache } = report;
      for (const miss of cache.misses) {
        assert.ok(MISS_CAUSES.includes(miss.cause), `${name}: ${miss.cause}`);
        assert.ok(miss.rewrittenTokens > 0);
        if (miss.cause === 'idle') assert.ok((miss.gapMs ?? 0) > miss.lifetimeMs);
      }
      assert.equal(
        cache.misses.length,
        Object.values(cache.byCause).reduce((sum, n) => sum + n, 0),
      );
      missesSeen += cache.misses.length;
      const paid = sessionCost(index, sequence).total.usd;
      const hitting = sessionCost(index, allHitting(sequence)).total.usd;
      assert.ok(Math.abs(paid - hitting - cache.usd) < 1e-9, `${name}: paid ${paid} − all hitting ${hitting} ≠ misses ${cache.usd}`);
      assert.ok(cache.hitRatio >= 0 && cache.hitRatio <= 1);
    });
  }
  it('the corpus has misses to check', () => assert.ok(missesSeen > 0));
});
