import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { editsInForce, liveFatesOf } from '../../../../src/host/proxy/liveFates';
import { EDIT_TIERS, type ProxyEdit, type ProxyEvent } from '../../../../src/proxy/events';

const edit = (toolUseId: string, tier: ProxyEdit['tier'] = 'supersede'): ProxyEdit => ({
  toolUseId,
  tier,
  ref: `ctx-lens:${toolUseId}`,
  tokensBefore: 900,
  tokensAfter: 30,
});
const call = (newEdits: ProxyEdit[], restored: string[] = []): ProxyEvent => ({
  v: 1,
  time: '2026-11-24T16:00:00.000Z',
  session: 's',
  agentSession: null,
  method: 'POST',
  path: '/v1/messages',
  action: 'edited',
  reason: null,
  model: null,
  stream: true,
  agentTokens: 0,
  sentTokens: 0,
  stickyEdits: 0,
  newEdits,
  restored,
  addedMs: 1,
  status: 200,
  usage: null,
  error: null,
});

describe('live fates', () => {
  it("names each tool result the proxy changed in the map's words, until the person's keep undoes it", () => {
    const events = [call([edit('a'), edit('b', 'age-clear'), edit('c', 'truncate')]), call([edit('d', 'choice'), edit('e', 'dedupe')], ['b'])];
    const items = ['a', 'b', 'c', 'd', 'e'].flatMap((id, index) => [
      { id: index * 2, kind: 'tool_use', toolUseId: id },
      { id: index * 2 + 1, kind: 'tool_result', toolUseId: id },
    ]);
    assert.deepEqual(
      liveFatesOf(events, [...items, { id: 99, kind: 'user' }]).map((fate) => [fate.id, fate.fate]),
      [
        [1, 'stubbed'],
        [5, 'truncated'],
        [7, 'dropped'],
        [9, 'stubbed'],
      ],
    );
  });

  it('an edit and its undoing, in any order of requests, leave what the last request said', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.constantFrom('a', 'b', 'c'), fc.boolean(), fc.constantFrom(...EDIT_TIERS)), { maxLength: 30 }), (steps) => {
        const events = steps.map(([id, undo, tier]) => (undo ? call([], [id]) : call([edit(id, tier)])));
        const edits = editsInForce(events);
        for (const id of ['a', 'b', 'c']) {
          const last = steps.filter(([other]) => other === id).at(-1);
          assert.equal(edits.get(id)?.tier, last && !last[1] ? last[2] : undefined);
        }
      }),
    );
  });
});
