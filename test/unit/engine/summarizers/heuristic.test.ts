import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { heuristicSections, heuristicSummary } from '../../../../src/engine/summarizers/heuristic';
import { frameSummary, markdownSummaryBuilder, parseSections, unframe } from '../../../../src/engine/summarizers/template';
import type { SummaryRequest } from '../../../../src/engine/summarizers/types';
import { assistant, build, call, results, user } from '../support/build';

function request(extra: Partial<SummaryRequest> = {}): SummaryRequest {
  const context = build([
    user('Speed up the parser.'),
    assistant('I decided to stream the file because loading it whole used 2 GB.', call('r1', 'Read', { file_path: '/src/parser.ts' })),
    results({ id: 'r1', output: 'export function parse() {}' }),
    assistant(call('b1', 'Bash', { command: 'npm test' })),
    results({ id: 'b1', output: 'FAIL parser.test.ts\nError: expected 3 got 4', isError: true }),
    assistant('The test failed because the offset was off by one. Found that parse() returns early. Next I need to fix the offset.'),
    assistant(call('e1', 'Edit', { file_path: '/src/parser.ts', old_string: 'a', new_string: 'b' })),
    results({ id: 'e1', output: 'auth token payload updated' }),
  ]);
  return {
    items: context.items.filter((item) => item.kind !== 'system'),
    focus: '',
    pinned: { constraints: [{ text: 'Never modify config/prod.yaml.' }], openLoops: [{ text: 'TODO: benchmark' }] },
    markers: [{ itemId: 9, phrases: ['wait', 'actually'] }],
    originalAsk: 'Speed up the parser.',
    maxTokens: 2_000,
    prompt: '',
    ...extra,
  };
}

describe('heuristic summarizer', () => {
  it('fills every template section from the span', () => {
    const sections = heuristicSections(request());
    assert.equal(sections['Task and intent']?.[0], 'Speed up the parser.');
    assert.match(sections['Decisions and reasons']?.[0] ?? '', /^I decided to stream the file because .* \(#\d+\)$/);
    assert.match(sections['Facts established']?.join('\n') ?? '', /Found that parse\(\) returns early/);
    assert.deepEqual(sections.Files, ['/src/parser.ts — modified (1 edit), read 1×']);
    assert.match(
      sections['Errors and root causes']?.[0] ?? '',
      /^Bash npm test failed: FAIL parser\.test\.ts — cause: The test failed because the offset was off by one\. \(#\d+\)$/,
    );
    assert.deepEqual(sections.Constraints, ['Never modify config/prod.yaml.']);
    assert.deepEqual(sections['Open loops'], ['TODO: benchmark']);
    assert.match(sections['Remaining work']?.[0] ?? '', /Next I need to fix the offset/);
    assert.deepEqual(sections['Uncertainty points'], ['#9: "wait", "actually"']);
  });

  it('marks focus matches in tool output', () => {
    assert.match(heuristicSections(request({ focus: 'auth token' })).Focus?.[0] ?? '', /^\*FOCUS\* #\d+: auth token payload updated$/);
  });

  it('merges a previous structured summary (iterative)', () => {
    const previous = markdownSummaryBuilder({ 'Decisions and reasons': ['Use Node 20 because of worker_threads'], Constraints: ['Always run lint.'] });
    const sections = heuristicSections(request({ previousSummary: previous }));
    assert.equal(sections['Decisions and reasons']?.[0], 'Use Node 20 because of worker_threads');
    assert.deepEqual(sections.Constraints, ['Always run lint.', 'Never modify config/prod.yaml.']);
  });

  it('keeps a foreign previous summary as context and bounds the body', () => {
    assert.match(heuristicSections(request({ previousSummary: 'Claude wrote this.' }))['Task and intent']?.[0] ?? '', /^Earlier summary: Claude wrote this\.$/);
    assert.ok(heuristicSummary(request({ maxTokens: 20 })).length <= 80);
  });

  it('frames summaries and reads them back', () => {
    const body = markdownSummaryBuilder({ Files: ['/a'] });
    const framed = frameSummary(body, 'PREFIX', { summarizedItems: 3, summarizer: 'heuristic', archiveId: 'x1' });
    assert.ok(framed.startsWith('PREFIX\n<context-summary items="3" by="heuristic" archive="x1">'));
    assert.equal(unframe(framed), body);
    assert.deepEqual(parseSections(body), { Files: ['/a'] });
    assert.equal(parseSections('plain prose'), undefined);
  });
});
