// The cost report on every session of the corpus (the published Claude Code and Codex sessions and
// the recorded ones): when its model is priced, every item, file group and subagent has a cost, and
// the items' costs (the head's, system prompt and tool definitions, among them) plus what fell on no
// item equal the prompt cost of the live chain's calls, priced one by one here. The recorded
// sessions run on claude-sonnet-5-5, which has no price: they are priced at Sonnet 4.5's list
// prices through an override, as the demo is in the cost e2e.
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { costOfCall } from '../../../src/pricing/callCost';
import { indexWithOverrides } from '../../../src/pricing/prices';
import { BUNDLED_PRICES } from '../../../src/pricing/bundledPrices';
import { AGENTS } from '../../../src/sessions/agents';
import { costReport } from '../../../src/sessions/costReport';
import { engineContextOf } from '../../../src/sessions/engineContext';
import type { SessionInfo } from '../../../src/sessions/types';

const FIXTURES = join(__dirname, '../../fixtures');
const priced = indexWithOverrides(BUNDLED_PRICES, { 'claude-sonnet-5-5': { input: 3, output: 15, cacheWrite: 3.75, cacheWrite1h: 6, cacheRead: 0.3 } });
assert.ok(priced.ok);
const prices = priced.value;

/** Every folder of the corpus that is an agent's home (Claude Code's `projects/`, Codex's `sessions/`). */
function homes(): string[] {
  const folders = ['claude-code', 'codex'].flatMap((agent) => {
    const root = join(FIXTURES, agent);
    const publicRoot = join(root, 'public');
    return [
      ...readdirSync(root).map((name) => join(root, name)),
      ...(existsSync(publicRoot) ? readdirSync(publicRoot).map((name) => join(publicRoot, name)) : []),
    ];
  });
  return folders.filter((folder) => existsSync(join(folder, 'projects')) || existsSync(join(folder, 'sessions')));
}

async function mainSessions(): Promise<SessionInfo[]> {
  const sessions: SessionInfo[] = [];
  for (const home of homes()) {
    for (const adapter of AGENTS) {
      const listed = await adapter.listSessions({ homes: { [adapter.id]: [home] } });
      if (listed.ok) sessions.push(...listed.value.filter((session) => !session.isSidechain));
    }
  }
  return sessions;
}

const close = (a: number, b: number): boolean => Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));

describe('the cost report on the corpus', () => {
  it("prices every item, file group and subagent of every priced session, and the items plus the rest are the prompts' cost", async () => {
    const sessions = await mainSessions();
    let checked = 0;
    let subagents = 0;
    for (const session of sessions) {
      const adapter = AGENTS.find((candidate) => candidate.id === session.agent);
      assert.ok(adapter);
      const live = await adapter.readLiveContext(session);
      assert.ok(live.ok, `${session.path}: ${live.ok ? '' : live.error.message}`);
      const context = engineContextOf(live.value);
      const report = await costReport(prices, adapter, live.value, context);
      const where = `${session.agent} ${session.path.split('/fixtures/')[1] ?? session.path}`;
      for (const agent of report.subagents) {
        if (agent.unpriced.length > 0) continue;
        subagents++;
        assert.ok(agent.calls > 0 && agent.usd > 0 && agent.tokens > 0, `${where}: subagent ${agent.id} ${JSON.stringify(agent)}`);
      }
      const costs = live.value.calls.map((call) => costOfCall(prices, call));
      // Unpriced or without calls: tokens only, nothing to add up.
      if (costs.length === 0 || costs.some((cost) => cost === null)) continue;
      checked++;
      assert.equal(report.items.length, context.items.length, where);
      report.items.forEach((usd, id) => assert.ok(Number.isFinite(usd) && usd >= 0, `${where}: item #${id} costs ${usd}`));
      // The head (system prompt, tool definitions) is in every prompt: it always has paid.
      for (const item of context.items.filter((candidate) => candidate.messageIndex === -1 && candidate.tokens > 0))
        assert.ok((report.items[item.id] ?? 0) > 0, `${where}: head item #${item.id}`);
      // An item sent in any call paid for it: only what came after the last call is still free.
      const lastFrom = Math.max(...live.value.calls.map((call) => call.from));
      for (const item of context.items)
        if (item.tokens > 0 && item.messageIndex < lastFrom)
          assert.ok((report.items[item.id] ?? 0) > 0, `${where}: item #${item.id} (message ${item.messageIndex}) sent but free`);
      for (const group of report.byFile)
        assert.ok(
          Number.isFinite(group.usd) && group.usd >= 0 && (group.tokens === 0 || group.usd > 0),
          `${where}: ${group.resource} ${JSON.stringify(group)}`,
        );
      const prompts = costs.reduce((sum, cost) => sum + (cost?.prompt ?? 0), 0);
      const items = report.items.reduce((sum, usd) => sum + usd, 0);
      assert.ok(close(report.context.promptUsd, prompts), `${where}: ${report.context.promptUsd} vs the calls' ${prompts}`);
      assert.ok(close(items + report.context.unassignedUsd, prompts), `${where}: items ${items} + rest ${report.context.unassignedUsd} vs ${prompts}`);
    }
    // 31 of the 34 main sessions have priced calls on their live chain, with 13 priced subagents: a listing that found fewer proves less.
    assert.ok(checked >= 30, `only ${checked} of ${sessions.length} sessions checked`);
    assert.ok(subagents >= 13, `only ${subagents} subagents checked`);
  });
});
