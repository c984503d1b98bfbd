import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ContextItem } from '../../../../src/engine/model';
import { heuristicSections } from '../../../../src/engine/summarizers/heuristic';
import type { SummaryRequest } from '../../../../src/engine/summarizers/types';
import { assistant, build, call, results, user } from '../support/build';

/** The span is everything up to `spanEnd` (exclusive); the rest stays after it. */
function request(
  messages: Parameters<typeof build>[0],
  spanEnd: number,
  extra: Partial<SummaryRequest> = {},
): { request: SummaryRequest; items: ContextItem[] } {
  const items = build(messages).items.filter((item) => item.kind !== 'system');
  const span = items.filter((item) => item.messageIndex < spanEnd);
  return {
    items,
    request: {
      items: span,
      later: items.filter((item) => item.messageIndex >= spanEnd),
      focus: '',
      pinned: { constraints: [], openLoops: [] },
      markers: [],
      maxTokens: 2_000,
      prompt: '',
      ...extra,
    },
  };
}

describe('the heuristic summary states the latest word', () => {
  it('a TODO completed by an item kept after the span is listed as done, with where, not as open or remaining', () => {
    const { request: req, items } = request(
      [
        user('Make the parser stream its input.'),
        assistant('TODO: stream the parser input instead of loading it whole. Next I need to stream the parser input.'),
        user('ok'),
        assistant('The parser input is now streamed in 64 KiB chunks; the memory test passes.'),
      ],
      2,
    );
    const sections = heuristicSections(req);
    const where = items.find((item) => item.text.includes('now streamed'))?.id;
    assert.deepEqual(sections['Open loops'] ?? [], []);
    assert.deepEqual(sections['Remaining work'] ?? [], []);
    assert.equal(sections.Done?.length, 1, sections.Done?.join('\n'));
    // The plan to do the same thing is closed by the same words: one line.
    assert.match(
      sections.Done?.[0] ?? '',
      new RegExp(`^TODO: stream the parser input instead of loading it whole\\. (?:.* )?— done \\(#${where}\\): The parser input is now streamed`),
    );
  });

  it("an earlier summary's stale claim gives way to the later item, and its old focus instruction is not a fact", () => {
    const previousSummary = [
      '## Facts established',
      '- The retry loop uses a fixed delay. Focus: focus on the retry logic.',
      '## Errors and root causes',
      '- Off-by-one: fixed. Rate limiter still leaks tokens: not fixed yet.',
      '## Remaining work',
      '- TODO: plug the rate limiter leak.',
    ].join('\n');
    const { request: req } = request(
      [user('Go on.'), assistant('The rate limiter no longer leaks tokens: the refill is now clamped, and the soak test passes.')],
      0,
      { previousSummary },
    );
    const sections = heuristicSections(req);
    assert.deepEqual(sections['Facts established'], ['The retry loop uses a fixed delay.']);
    assert.equal(sections['Errors and root causes']?.length, 1);
    assert.match(sections['Errors and root causes']?.[0] ?? '', /^Off-by-one: fixed\. Now \(#\d+\): The rate limiter no longer leaks tokens/);
    assert.doesNotMatch(JSON.stringify(sections), /still leaks|not fixed yet|Focus: focus/);
    assert.match(sections.Done?.[0] ?? '', /^TODO: plug the rate limiter leak\. — (?:done|passed) \(#\d+\)/);
  });

  it('a failed run is shown with its passing re-run, even when the re-run stays after the span', () => {
    const { request: req, items } = request(
      [
        assistant(call('b1', 'Bash', { command: 'npm test' })),
        results({ id: 'b1', output: 'not ok 3 - formats JPY\nExit code 1', isError: true }),
        assistant('The formatter ignores zero-decimal currencies.'),
        assistant(call('b2', 'Bash', { command: 'npm test' })),
        results({ id: 'b2', output: 'ok 3 - formats JPY\n# pass 240' }),
      ],
      3,
    );
    const rerun = items.findLast((item) => item.kind === 'tool_result')?.id;
    const errors = heuristicSections(req)['Errors and root causes'] ?? [];
    assert.equal(errors.length, 1);
    assert.match(errors[0] ?? '', new RegExp(`failed: not ok 3 - formats JPY.*\\(passed later, #${rerun}\\)`));
  });

  it('a failed run later passed keeps its error text and root cause, however long (issue 41 item 8)', () => {
    // The shape of a long recorded session: three failing runs, each with long verdict lines and a
    // stated cause, each passing later. The lines ran past the 400 characters of a "sentence" and
    // were cut down to "(passed later, #124) (#43)" or lost.
    const verdicts = (n: number): string =>
      [1, 2, 3]
        .map(
          (k) => `not ok ${n}${k} - provider ${k} settles the refund for order ${'x'.repeat(40)} within the settlement window after the retry budget is spent`,
        )
        .join('\n');
    const cause = (n: number): string =>
      `The root cause is that run ${n} fails because the settlement window is computed from the first attempt instead of the last one, so every retried refund after the budget is spent falls outside it and is reported twice.`;
    const messages = [1, 2, 3].flatMap((n) => [
      assistant(call(`f${n}`, 'Bash', { command: `npm test -- suite${n}` })),
      results({ id: `f${n}`, output: `${verdicts(n)}\nExit code 1`, isError: true }),
      assistant(cause(n)),
    ]);
    const reruns = [1, 2, 3].flatMap((n) => [
      assistant(call(`p${n}`, 'Bash', { command: `npm test -- suite${n}` })),
      results({ id: `p${n}`, output: `ok ${n}1\n# pass 3` }),
    ]);
    const { request: req } = request([...messages, ...reruns], messages.length);
    const errors = heuristicSections(req)['Errors and root causes'] ?? [];
    assert.equal(errors.length, 3, errors.join('\n'));
    for (const [index, line] of errors.entries()) {
      assert.match(line, new RegExp(`^Bash \`?npm test -- suite${index + 1}\`? failed: not ok ${index + 1}1 - provider 1`), line);
      assert.match(line, /— cause: The root cause is that run \d fails because/);
      assert.match(line, /\(passed later, #\d+\) \(#\d+\)$/);
    }
  });

  it('a question the person asked and the agent answered is not an open loop; one still unanswered is', () => {
    const messages = [
      user('What is still open?'),
      assistant('Still open: the config budget and the soft-decline question.'),
      user('Should we also support Node 18?'),
      assistant('Looking at the formatter first.'),
      user('Carry on.'),
    ];
    const items = build(messages).items.filter((item) => item.kind !== 'system');
    const asked = (text: string) => ({ text, sourceId: items.find((item) => item.text === text)?.id ?? -1 });
    const { request: req } = request(messages, 4, {
      pinned: { constraints: [], openLoops: [asked('What is still open?'), asked('Should we also support Node 18?')] },
    });
    const sections = heuristicSections(req);
    assert.ok(sections['Open loops']?.some((line) => line.startsWith('Should we also support Node 18?')));
    assert.ok(!sections['Open loops']?.some((line) => line.startsWith('What is still open?')));
    assert.match(sections.Done?.find((line) => line.startsWith('What is still open?')) ?? '', / — answered \(#\d+\)/);
  });

  it('says each thing once: a task line repeated by a later line with the same ask and a quoted constraint', () => {
    const previousSummary = [
      '1. Primary Request and Intent:',
      'Fix the retry bug in src/retry.ts (charges gave up early); then explain the log.',
      '5. All user messages:',
      '- Fix the retry bug in src/retry.ts. Constraints: never modify config/prod.yaml.',
    ].join('\n');
    const { request: req } = request([user('Go on.')], 0, {
      previousSummary,
      pinned: { constraints: [{ text: 'Constraints: never modify config/prod.yaml.' }], openLoops: [] },
    });
    const task = heuristicSections(req)['Task and intent'] ?? [];
    assert.equal(task.filter((line) => /fix the retry bug/i.test(line)).length, 1, task.join('\n'));
  });
});
