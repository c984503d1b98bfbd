// Issue 39, item 3: what each subagent started with (its first call's prompt) and whether that was
// most of its parent's context at the time (Claude Code's forked subagents inherit all of it).
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { formatTokens } from '../../../src/protocol/format';
import { BUNDLED_PRICES } from '../../../src/pricing/bundledPrices';
import { indexPrices } from '../../../src/pricing/prices';
import { identifyFile } from '../../../src/sessions/agents';
import { costReport, startedWithText } from '../../../src/sessions/costReport';
import { engineContextOf } from '../../../src/sessions/engineContext';
import { subagentCosts } from '../../../src/host/sessions/subagentCosts';
import { subagentCostFacts } from '../../../src/host/sessions/pickerItems';
import { tempDir } from '../../support/tempDir';

process.env.CONTEXT_LENS_CACHE = tempDir('cl-subagent-start-');
const CLAUDE = join(__dirname, '..', '..', 'fixtures', 'claude-code');
/** A published Claude Code 2.1.39 session: a compaction subagent that starts from its parent's whole history, and an Explore-like one. */
const SPOTTER = join(
  CLAUDE,
  'public',
  'spotter-2.1.39',
  'projects',
  '-home-USER-projects-spotter-worktrees-spotter-4te',
  'ae4a77f8-aedd-4bc1-888f-c94edc91af04.jsonl',
);
const index = indexPrices(BUNDLED_PRICES);

async function report(path: string) {
  const { adapter } = await identifyFile(path);
  assert.ok(adapter, 'no agent reads ' + path);
  const info = await adapter.readSessionInfo(path);
  assert.ok(info.ok);
  const live = await adapter.readLiveContext(info.value);
  assert.ok(live.ok);
  return { adapter, info: info.value, report: await costReport(index, adapter, live.value, engineContextOf(live.value)) };
}

describe('what a subagent started with', () => {
  it("says when a subagent started with most of its parent's context, and what a fresh one started with", async () => {
    const { report: cost, adapter, info } = await report(SPOTTER);
    const texts = cost.subagents.map((agent) => startedWithText(agent.firstPromptTokens ?? 0, agent.parentTokens, formatTokens));
    assert.deepEqual(texts.sort(), ["started with 140k: most of its parent's 142k context", 'started with 14k']);
    // The same in Select Session…: each subagent's row, its parent read once.
    const listed = await adapter.listSessions({ homes: { 'claude-code': [join(CLAUDE, 'public', 'spotter-2.1.39')] } as never });
    assert.ok(listed.ok);
    const sessions = listed.value.filter((session) => session.id === info.id || session.parentSessionId === info.id);
    const costs = await subagentCosts(index, sessions);
    const rows = [...costs.values()].map(subagentCostFacts).sort();
    assert.equal(rows.length, 2);
    assert.match(rows.join('\n'), /started with 140k: most of its parent's 142k context/);
  });

  it('a subagent of a parent whose calls are unknown says only what it started with', () => {
    assert.equal(startedWithText(84_000, null, formatTokens), 'started with 84k');
    assert.equal(startedWithText(84_000, 96_000, formatTokens), "started with 84k: most of its parent's 96k context");
    assert.equal(startedWithText(12_000, 96_000, formatTokens), 'started with 12k');
  });
});
