import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { LiveProxyState } from '../../../src/protocol/messages';
import { heldNotSent, liveFatesText, liveProxyLine, sentToModel } from '../../../webview/logic/liveProxy';

const live: LiveProxyState = {
  at: '2026-11-24T16:03:00.000Z',
  action: 'sticky',
  reason: null,
  agentTokens: 121_000,
  sentTokens: 95_700,
  usage: { inputTokens: 10, outputTokens: 20, cacheReadTokens: 90_000, cacheCreationTokens: 5_000 },
  requests: 12,
  editedRequests: 4,
  edits: 8,
  failedOpen: 0,
  savedTokens: 61_300,
  items: [],
};

describe('the live proxy line', () => {
  it('says exactly what reached the model with the cache figures, what the agent holds, and the totals', () => {
    assert.equal(
      liveProxyLine(live),
      "Live proxy · sent to the model after live edits: 95,010 tokens (exact: 90,000 read from the model's cache, 5,000 written to it, 10 uncached) of the agent's ~121,000 (−25,300) · 8 tool results stubbed, cleared or truncated and 61,300 tokens not sent over 12 requests",
    );
    assert.deepEqual(sentToModel(live), { tokens: 95_010, exact: true });
  });

  it('says a request went through unchanged (an estimate without usage), and counts those forwarded as sent after an error', () => {
    const line = liveProxyLine({ ...live, sentTokens: 121_000, usage: null, edits: 1, requests: 1, failedOpen: 1, savedTokens: 0 });
    assert.equal(
      line,
      'Live proxy · the last request went through as the agent sent it: 121,000 tokens (estimate) · 1 tool result stubbed, cleared or truncated and 0 tokens not sent over 1 request · 1 request forwarded as sent after an error',
    );
  });
});

describe('the live proxy line when no request is known to be this session', () => {
  it('says "no match" with how many requests and when, rather than showing another session\'s figures', () => {
    const none = { ...live, requests: 0, agentTokens: 0, sentTokens: 0, usage: null, edits: 0, savedTokens: 0, matchedBy: null };
    const line = liveProxyLine({ ...none, unmatched: { requests: 3, at: '2020-01-02T03:04:00.000Z' } });
    assert.match(
      line,
      /^Live proxy · no match for this session: 3 requests through it \(the newest at Jan 2 2020, \d\d:04\) name no session and carry none of its tool calls$/,
    );
  });

  it('says when the session was found by its tool calls, and counts later requests that matched none', () => {
    const line = liveProxyLine({ ...live, matchedBy: 'tool-call', unmatched: { requests: 1, at: live.at } });
    assert.ok(line.endsWith(' · matched by its tool call ids · 1 later request matched no session'), line);
    assert.ok(!liveProxyLine({ ...live, matchedBy: 'session' }).includes('matched'));
  });
});

describe('the gauge stretch held but not sent', () => {
  const fill = { usedTokens: 95_010, windowTokens: 200_000, source: 'usage' as const };

  it('starts at the fill and is as wide as what the edits took out, within the bar', () => {
    const held = heldNotSent(fill, live);
    assert.ok(held);
    assert.ok(Math.abs(held.left - 47.505) < 1e-9);
    assert.ok(Math.abs(held.width - 12.65) < 1e-9);
    assert.match(held.title, /~25,300 tokens the live proxy stubbed/);
    assert.ok(Math.abs((heldNotSent({ ...fill, usedTokens: 190_000 }, live)?.width ?? 0) - 5) < 1e-9);
  });

  it('is absent when nothing was taken out', () => {
    assert.equal(heldNotSent(fill, { ...live, sentTokens: live.agentTokens }), null);
    assert.equal(heldNotSent({ ...fill, usedTokens: 200_000 }, live), null);
  });
});

describe('live fates in words', () => {
  it('counts each fate, most frequent first', () => {
    const item = (id: number, fate: 'stubbed' | 'cleared' | 'dropped') => ({ id, fate, tokensSent: 20, ref: 'ctx-lens:0000000000000000' });
    assert.equal(liveFatesText([item(1, 'cleared'), item(2, 'stubbed'), item(3, 'stubbed'), item(4, 'dropped')]), '2 stubbed, 1 cleared, 1 dropped');
    assert.equal(liveFatesText([]), '');
  });
});
