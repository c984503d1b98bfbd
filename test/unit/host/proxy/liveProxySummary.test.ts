import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { liveProxyOf, readProxyEventTail } from '../../../../src/host/proxy/liveProxySummary';
import { formatProxyEvent, type ProxyEvent } from '../../../../src/proxy/events';
import { tempDir } from '../../../support/tempDir';

function event(overrides: Partial<ProxyEvent>): ProxyEvent {
  return {
    v: 1,
    time: '2026-11-24T16:00:00.000Z',
    session: 's1',
    agentSession: null,
    method: 'POST',
    path: '/v1/messages',
    action: 'unchanged',
    reason: null,
    model: 'claude-sonnet-5-5',
    stream: true,
    agentTokens: 1000,
    sentTokens: 1000,
    stickyEdits: 0,
    newEdits: [],
    restored: [],
    addedMs: 1,
    status: 200,
    usage: { inputTokens: 10, outputTokens: 20, cacheReadTokens: 900, cacheCreationTokens: 90 },
    error: null,
    ...overrides,
  };
}

const edit = (id: string) => ({ toolUseId: id, tier: 'supersede' as const, ref: `ctx-lens:${id}`, tokensBefore: 500, tokensAfter: 20 });

describe('the live proxy in the panel', () => {
  it('says what the last request sent against what the agent sent, with the exact usage and the session totals', () => {
    const events = [
      event({ session: 'old', agentTokens: 5 }),
      event({ time: '2026-11-24T16:01:00.000Z' }),
      event({ time: '2026-11-24T16:02:00.000Z', action: 'edited', agentTokens: 120_400, sentTokens: 95_120, newEdits: [edit('a'), edit('b')] }),
      event({ time: '2026-11-24T16:02:01.000Z', action: 'passthrough', path: '/v1/messages/count_tokens' }),
      event({ time: '2026-11-24T16:03:00.000Z', action: 'sticky', agentTokens: 121_000, sentTokens: 95_700, stickyEdits: 2 }),
    ];
    const live = liveProxyOf(events);
    assert.deepEqual(live, {
      at: '2026-11-24T16:03:00.000Z',
      action: 'sticky',
      reason: null,
      agentTokens: 121_000,
      sentTokens: 95_700,
      usage: { inputTokens: 10, outputTokens: 20, cacheReadTokens: 900, cacheCreationTokens: 90 },
      // The newest session only: 's1' (the passthrough call is no conversation).
      requests: 3,
      editedRequests: 2,
      edits: 2,
      failedOpen: 0,
      savedTokens: 25_280 + 25_300,
      items: [],
      matchedBy: null,
      unmatched: null,
    });
  });

  it('follows the session the panel follows: requests of another agent session are left out', () => {
    const mine = '11111111-2222-3333-4444-555555555555';
    const events = [
      event({ agentSession: mine, action: 'edited', agentTokens: 50_000, sentTokens: 40_000, newEdits: [edit('a')] }),
      event({ session: 's2', agentSession: '99999999-2222-3333-4444-555555555555', agentTokens: 7 }),
    ];
    const items = [
      { id: 4, kind: 'tool_use', toolUseId: 'a' },
      { id: 5, kind: 'tool_result', toolUseId: 'a' },
    ];
    const live = liveProxyOf(events, { sessionId: mine, items });
    assert.equal(live?.agentTokens, 50_000);
    assert.deepEqual(live?.items, [{ id: 5, fate: 'stubbed', tokensSent: 20, ref: 'ctx-lens:a' }]);
    // Without a followed session every request counts (the newest is the other session's).
    assert.equal(liveProxyOf(events)?.agentTokens, 7);
  });

  it('counts requests forwarded unchanged after an error, and says nothing before any request', () => {
    assert.equal(liveProxyOf([]), null);
    assert.equal(liveProxyOf([event({ action: 'passthrough' })]), null);
    assert.equal(liveProxyOf([event({}), event({ action: 'failed-open', reason: 'timeout' })])?.failedOpen, 1);
  });

  it("reads the file's valid lines, skipping torn and foreign ones", async () => {
    const path = join(tempDir('cl-proxy-events-'), 'events.jsonl');
    writeFileSync(path, [formatProxyEvent(event({})), '{"v":2}', 'not json', formatProxyEvent(event({ action: 'edited' })), '{"v":1,"ti'].join('\n'));
    assert.deepEqual(
      (await readProxyEventTail(path)).map((read) => read.action),
      ['unchanged', 'edited'],
    );
    assert.deepEqual(await readProxyEventTail(join(path, '..', 'missing.jsonl')), []);
  });
});
