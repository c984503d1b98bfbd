import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { liveEditLabel, withLiveEdits } from '../../../../src/host/proxy/liveTimeline';
import type { TimelinePoint } from '../../../../src/protocol/messages';
import type { ProxyEdit, ProxyEvent } from '../../../../src/proxy/events';

const edit = (toolUseId: string, tier: ProxyEdit['tier'] = 'supersede'): ProxyEdit => ({
  toolUseId,
  tier,
  ref: `ctx-lens:${toolUseId}`,
  tokensBefore: 900,
  tokensAfter: 30,
});
const call = (time: string, fields: Partial<ProxyEvent> = {}): ProxyEvent => ({
  v: 1,
  time,
  session: 's',
  agentSession: null,
  method: 'POST',
  path: '/v1/messages',
  action: 'edited',
  reason: null,
  model: null,
  stream: true,
  agentTokens: 120_400,
  sentTokens: 95_120,
  stickyEdits: 0,
  newEdits: [edit('a'), edit('b'), edit('c', 'age-clear')],
  restored: [],
  addedMs: 1,
  status: 200,
  usage: { inputTokens: 20, outputTokens: 5, cacheReadTokens: 90_000, cacheCreationTokens: 5_100 },
  error: null,
  ...fields,
});
const point = (at: string | null, usedTokens: number, event: TimelinePoint['event'] = null): TimelinePoint => ({ at, usedTokens, event });

describe('live edits on the timeline', () => {
  it('mark the call the edited request made: the first call recorded after it', () => {
    const points = [point('2026-11-24T16:00:00.000Z', 80_000), point('2026-11-24T16:01:05.000Z', 95_120), point('2026-11-24T16:02:00.000Z', 96_000)];
    const marked = withLiveEdits(points, [call('2026-11-24T16:01:00.000Z'), call('2026-11-24T16:01:30.000Z', { newEdits: [], action: 'sticky' })]);
    assert.equal(marked.length, 3);
    assert.deepEqual(
      marked.map((entry) => entry.event?.kind ?? null),
      [null, 'live', null],
    );
    assert.equal(marked[1]?.event?.label, "2 stubbed, 1 cleared (sent 95,120 of the agent's 120,400 tokens)");
    assert.deepEqual(points[1]?.event, null, 'the input is not changed');
  });

  it('a request whose call is not recorded yet gets a point of its own with the exact usage; a compaction keeps its mark', () => {
    const compaction = point('2026-11-24T16:01:10.000Z', 30_000, { kind: 'agent', label: 'agent compacted' });
    const marked = withLiveEdits([point('2026-11-24T16:00:00.000Z', 80_000), compaction], [call('2026-11-24T16:01:00.000Z')]);
    assert.deepEqual(
      marked.map((entry) => [entry.usedTokens, entry.event?.kind ?? null]),
      [
        [80_000, null],
        [95_120, 'live'],
        [30_000, 'agent'],
      ],
    );
  });

  it("says what the person's keep undid", () => {
    assert.equal(
      liveEditLabel(call('2026-11-24T16:01:00.000Z', { newEdits: [edit('d', 'choice')], restored: ['a'] })),
      "1 dropped, 1 restored (sent 95,120 of the agent's 120,400 tokens)",
    );
  });

  it("says whether the batch pays, in the preview's words", () => {
    const breakEven = {
      model: 'claude-sonnet-4-5',
      oneOffUsd: 0.41,
      savingPerCallUsd: 0.12,
      breakEvenCalls: 4,
      sentence: 'costs $0.41 once, saves $0.12 per call: pays off after 4 calls',
    };
    assert.equal(
      liveEditLabel(call('2026-11-24T16:01:00.000Z', { breakEven })),
      "2 stubbed, 1 cleared (sent 95,120 of the agent's 120,400 tokens); costs $0.41 once, saves $0.12 per call: pays off after 4 calls",
    );
  });
});
