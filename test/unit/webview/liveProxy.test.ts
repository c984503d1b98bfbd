import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { LiveProxyState } from '../../../src/protocol/messages';
import { liveProxyLine } from '../../../webview/logic/liveProxy';

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
};

describe('the live proxy line', () => {
  it('says what reached the model, what our edits took out and what the model read from its cache', () => {
    assert.equal(
      liveProxyLine(live),
      "Live proxy: the last request sent 95,700 of the agent's 121,000 tokens (−25,300 by our edits) · 8 tool results stubbed, cleared or truncated in 12 requests · the model read 90,000 tokens from its cache and wrote 5,000",
    );
  });

  it('says a request went through unchanged, and counts those forwarded as sent after an error', () => {
    const line = liveProxyLine({ ...live, sentTokens: 121_000, usage: null, edits: 1, requests: 1, failedOpen: 1 });
    assert.equal(line, "Live proxy: the last request went through as the agent sent it (121,000 tokens) · 1 tool result stubbed, cleared or truncated in 1 request · 1 request forwarded as sent after an error");
  });
});
