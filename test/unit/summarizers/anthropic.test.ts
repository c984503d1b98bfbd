// Goes through the real @anthropic-ai/sdk against the loopback Anthropic stand-in.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { reply, startFakeAnthropic, text, type FakeAnthropic } from '../../support/fake-anthropic';
import { AnthropicSummarizer } from '../../../src/summarizers/anthropic';
import type { SummaryRequest } from '../../../src/engine/summarizers/types';

const request: SummaryRequest = {
  items: [],
  focus: '',
  pinned: { constraints: [], openLoops: [] },
  markers: [],
  maxTokens: 300,
  prompt: 'Compress the agent session excerpt below.\n[#3 user]\nhello',
};

describe('AnthropicSummarizer', () => {
  let server: FakeAnthropic;
  before(async () => {
    server = await startFakeAnthropic({ scenario: { turns: [], classify: () => 'side', side: () => reply(text('## Task and intent\n- say hello')) } });
  });
  after(async () => server.stop());

  it('sends the prompt with the caller’s key and model and returns the text', async () => {
    const summarizer = new AnthropicSummarizer({ apiKey: 'sk-ant-test-key', baseURL: server.url, model: 'claude-test-model' });
    const result = await summarizer.summarize(request, new AbortController().signal);
    assert.deepEqual(result, { ok: true, value: '## Task and intent\n- say hello' });
    const sent = server.requests.at(-1);
    assert.equal((sent?.body as { model?: string }).model, 'claude-test-model');
    assert.equal((sent?.body as { max_tokens?: number }).max_tokens, 300);
    assert.match(JSON.stringify(sent?.body), /Compress the agent session excerpt/);
  });

  it('reports connection failures as a result, not an exception', async () => {
    const summarizer = new AnthropicSummarizer({ apiKey: 'k', baseURL: 'http://127.0.0.1:1' });
    const result = await summarizer.summarize(request, new AbortController().signal);
    assert.equal(result.ok, false);
    assert.match(result.ok ? '' : result.error, /^anthropic: /);
  });
});
