import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { liveProxyStatus } from '../../../../src/host/proxy/liveProxyStatus';
import type { LiveProxyState } from '../../../../src/protocol/messages';

const summary: LiveProxyState = {
  at: '2026-11-24T16:03:00.000Z',
  action: 'sticky',
  reason: null,
  agentTokens: 121_000,
  sentTokens: 95_700,
  usage: null,
  requests: 12,
  editedRequests: 4,
  edits: 8,
  failedOpen: 0,
  savedTokens: 61_300,
  items: [],
};

describe('the live proxy status bar item', () => {
  it('says it is on and what it saved on the last request; the tooltip has the figures and how to stop', () => {
    const status = liveProxyStatus('http://127.0.0.1:4100', summary);
    assert.equal(status.text, '$(radio-tower) Proxy on · −25k');
    assert.match(status.tooltip, /121,000 tokens; 95,700 reached the model after live edits \(−25,300\)/);
    assert.match(status.tooltip, /61,300 tokens not sent over 12 requests/);
    assert.match(status.tooltip, /Click to stop\.$/);
  });

  it('before any request, or when nothing was taken out, it only says it is on', () => {
    assert.equal(liveProxyStatus('http://127.0.0.1:4100', null).text, '$(radio-tower) Proxy on');
    assert.equal(liveProxyStatus('http://127.0.0.1:4100', { ...summary, sentTokens: 121_000 }).text, '$(radio-tower) Proxy on');
  });
});
