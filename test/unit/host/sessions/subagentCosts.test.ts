// Select Session…'s subagent costs on real published sessions of both layouts: 2.1.x keeps them in
// `<session>/subagents/`, 2.0.x beside the session; each is priced on its own calls, and the rows
// list them under their session with those figures.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { BUNDLED_PRICES } from '../../../../src/pricing/bundledPrices';
import { indexPrices } from '../../../../src/pricing/prices';
import { pickerItems } from '../../../../src/host/sessions/pickerItems';
import { subagentCosts } from '../../../../src/host/sessions/subagentCosts';
import { listSessions } from '../../../../src/sessions/claude-code/listing';

const PUBLIC = join(__dirname, '../../../fixtures/claude-code/public');
const prices = indexPrices(BUNDLED_PRICES);

async function listed(folder: string) {
  const read = await listSessions({ configDirs: [join(PUBLIC, folder)] });
  assert.ok(read.ok);
  return read.value.sessions;
}

describe('subagentCosts', () => {
  it('prices each subagent of a 2.1.x session (subagents/ folder) and lists it under its session', async () => {
    const sessions = await listed('session-share-2.1.15');
    const costs = await subagentCosts(prices, sessions);
    assert.equal(costs.size, 5);
    for (const cost of costs.values()) {
      assert.ok(cost.calls > 0 && cost.tokens > 0 && cost.usd > 0, JSON.stringify(cost));
      assert.deepEqual(cost.unpriced, []);
    }
    const rows = pickerItems(sessions, Date.now(), costs);
    assert.equal(rows[0]?.session.id, '0ccf1a04-1b4c-43b6-8aa5-79e41db43a68');
    assert.match(rows[0]?.detail ?? '', /^5 subagents \$\d+\.\d+ · \//);
    for (const subagent of rows.slice(1)) {
      assert.match(subagent.description, /^subagent of “.*” · /);
      assert.match(subagent.detail, /^\d+ calls? · fill [\d.]+k? · \$\d+\.\d+ · started with [\d.]+k · \/.*\.jsonl$/);
    }
  });

  it('prices the sidechain files a 2.0.x session wrote beside it, under that session', async () => {
    const sessions = await listed('codemie-2.0.64');
    const costs = await subagentCosts(prices, sessions);
    const rows = pickerItems(sessions, Date.now(), costs);
    assert.equal(rows[0]?.session.id, '4c2ddfdc-b619-4525-8d03-1950fb1b0257');
    assert.deepEqual(
      rows
        .slice(1)
        .map((row) => row.session.id)
        .sort(),
      ['agent-36541525', 'agent-50243ee8'],
    );
    assert.equal(costs.size, 2);
    for (const row of rows.slice(1)) {
      assert.match(row.label, /^ {4}\$\(type-hierarchy-sub\) /);
      assert.match(row.detail, /^1 call · fill 17k · \$0\.\d+ · /);
    }
  });
});
