// The agent's own /compact summary, as Claude Code 2.1.328 recorded it, merged into our next summary
// whole: framing gone, every section's content kept under the matching heading of our template.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { sectionsOfSummary, summaryBody } from '../../../../src/engine/summarizers/foreignSummary';
import { heuristicSummary } from '../../../../src/engine/summarizers/heuristic';
import { frameSummary, markdownSummaryBuilder } from '../../../../src/engine/summarizers/template';

function recordedSummary(): string {
  const folder = join(__dirname, '..', '..', '..', 'fixtures', 'claude-code', 'compact', 'projects');
  const [project] = readdirSync(folder);
  const file = readdirSync(join(folder, project!)).find((name) => name.endsWith('.jsonl'))!;
  for (const line of readFileSync(join(folder, project!, file), 'utf8').split('\n')) {
    const record = line ? (JSON.parse(line) as { isCompactSummary?: boolean; message?: { content: string } }) : {};
    if (record.isCompactSummary) return record.message!.content;
  }
  throw new Error('the compact fixture has no summary');
}

describe('foreign summaries', () => {
  const recorded = recordedSummary();

  it('drops the harness framing: preamble, reminders, closing instructions', () => {
    const body = summaryBody(recorded);
    assert.match(body, /^1\. Primary Request and Intent:/);
    assert.doesNotMatch(body, /This session is being continued|system-reminder|If you need specific details|Continue the conversation/);
    assert.match(body, /6\. Current Work:\nThe attempt-count fix is in; the 4xx test is still red\.$/);
  });

  it("maps Claude Code's numbered sections onto our template", () => {
    assert.deepEqual(sectionsOfSummary(summaryBody(recorded)), {
      'Task and intent': ['Fix withRetry in src/retry.ts, which makes one attempt too few, and run the tests.'],
      'Facts established': ['Retry loop bounds, backoff delay, HttpError status codes. Focus: focus on the retry logic.'],
      Files: ['src/retry.ts: loop changed to `attempt <= options.retries`.', 'test/retry.test.ts: two tests (attempt count; no retry on 4xx).'],
      'Errors and root causes': ['Off-by-one in the retry loop: fixed. 404 responses are still retried: the second test fails.'],
      'Remaining work': ['Stop retrying client errors (4xx).', 'The attempt-count fix is in; the 4xx test is still red.'],
    });
  });

  it('reads our own framed summaries back as they were written', () => {
    const body = markdownSummaryBuilder({ Files: ['src/a.ts (modified)'], 'Open loops': ['TODO: jitter'] });
    const framed = frameSummary(body, 'Reference only.', { summarizedItems: 3, summarizer: 'heuristic' });
    assert.equal(summaryBody(framed), body);
    assert.deepEqual(sectionsOfSummary(summaryBody(framed)), { Files: ['src/a.ts (modified)'], 'Open loops': ['TODO: jitter'] });
  });

  it('replaces code excerpts by a note and keeps unheaded text as earlier-summary bullets', () => {
    assert.deepEqual(sectionsOfSummary('We agreed on a plan.\n## Files and code\n- src/x.ts\n```ts\nconst a = 1;\nconst b = 2;\n```\n```\nunclosed'), {
      'Task and intent': ['Earlier summary: We agreed on a plan.'],
      Files: ['src/x.ts', '(code excerpt of 2 lines omitted; kept in the archive)', '(unclosed code excerpt of 1 lines omitted; kept in the archive)'],
    });
  });

  it("keeps all of the agent's summary when the heuristic summarizer merges past it", () => {
    const merged = heuristicSummary({
      items: [],
      previousSummary: summaryBody(recorded),
      focus: '',
      pinned: { constraints: [], openLoops: [] },
      markers: [],
      maxTokens: 4_000,
      prompt: '',
    });
    for (const line of [
      '- Stop retrying client errors (4xx).',
      '- test/retry.test.ts: two tests (attempt count; no retry on 4xx).',
      '- Off-by-one in the retry loop: fixed.',
    ])
      assert.ok(merged.includes(line), line);
    assert.doesNotMatch(merged, /Earlier summary|system-reminder/);
  });
});
