import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runSummarizer } from '../../../../src/engine/summarizers/run';
import type { Summarizer, SummaryRequest } from '../../../../src/engine/summarizers/types';

const request: SummaryRequest = {
  items: [],
  focus: '',
  pinned: { constraints: [], openLoops: [] },
  markers: [],
  originalAsk: 'Do it.',
  maxTokens: 100,
  prompt: 'p',
};

describe('runSummarizer', () => {
  it('uses the summarizer when it answers in time', async () => {
    const quick: Summarizer = { name: 'quick', summarize: async () => ({ ok: true, value: 'S' }) };
    assert.deepEqual((({ durationMs: _d, ...rest }) => rest)(await runSummarizer(quick, request, { timeoutMs: 1_000 })), {
      text: 'S',
      summarizer: 'quick',
      fellBack: false,
      redactions: 0,
    });
  });

  it('falls back to the heuristic on error, exception and timeout, and says why', async () => {
    const failing: Summarizer = { name: 'failing', summarize: async () => ({ ok: false, error: 'HTTP 500' }) };
    const throwing: Summarizer = { name: 'throwing', summarize: async () => Promise.reject(new Error('boom')) };
    let aborted = false;
    const slow: Summarizer = {
      name: 'slow',
      summarize: (_request, signal) =>
        new Promise((resolve) => {
          signal.addEventListener('abort', () => {
            aborted = true;
            resolve({ ok: false, error: 'aborted' });
          });
        }),
    };
    const outcomes = await Promise.all([failing, throwing, slow].map((summarizer) => runSummarizer(summarizer, request, { timeoutMs: 30 })));
    assert.deepEqual(
      outcomes.map((outcome) => [outcome.summarizer, outcome.fellBack, outcome.error]),
      [
        ['heuristic', true, 'HTTP 500'],
        ['heuristic', true, 'throwing: boom'],
        ['heuristic', true, 'slow timed out after 30 ms'],
      ],
    );
    assert.ok(outcomes.every((outcome) => outcome.text.includes('Do it.')));
    assert.ok(aborted, 'the slow summarizer saw the abort');
  });
});

describe('runSummarizer redaction', () => {
  it('masks a key a model quotes back, and counts it', async () => {
    const leaky: Summarizer = { name: 'leaky', summarize: async () => ({ ok: true, value: 'Failed with AWS key AKIAIOSFODNN7EXAMPLE.' }) };
    const outcome = await runSummarizer(leaky, request, { timeoutMs: 1_000 });
    assert.equal(outcome.text, 'Failed with AWS key [REDACTED].');
    assert.equal(outcome.redactions, 1);
  });

  it('masks a key in the reason a summarizer failed', async () => {
    const failing: Summarizer = { name: 'failing', summarize: async () => ({ ok: false, error: '401 for sk-ant-api03-secretvalue123' }) };
    assert.equal((await runSummarizer(failing, request, { timeoutMs: 1_000 })).error, '401 for [REDACTED]');
  });
});
