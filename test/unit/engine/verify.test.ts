import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { frameSummary } from '../../../src/engine/summarizers/template';
import { verify } from '../../../src/engine/verify';
import { assistant, build, call, results, user } from './support/build';

const framed = (body: string): string => frameSummary(body, 'Background only.', { summarizedItems: 3, summarizer: 'test' });
const none = { constraints: [], openLoops: [] };

describe('verify: nothing stale stated as current', () => {
  const before = build([
    user('Make the backoff exponential.'),
    assistant('TODO: exponential backoff with jitter.'),
    assistant(call('b1', 'Bash', { command: 'npm test' })),
    results({ id: 'b1', output: 'not ok 2 - backoff grows\nExit code 1', isError: true }),
    assistant('The backoff is now exponential with jitter.'),
    assistant(call('b2', 'Bash', { command: 'npm test' })),
    results({ id: 'b2', output: 'ok 2 - backoff grows' }),
  ]).items;
  const id = (text: string): number => before.find((item) => item.text.includes(text))?.id ?? -1;
  const failed = before.find((item) => item.kind === 'tool_result' && item.isError)?.id ?? -1;

  it('flags a line saying open what a later item says is done, and a failing run listed without its passing re-run', () => {
    const body = [
      '## Errors and root causes',
      `- Bash \`npm test\` failed: not ok 2 - backoff grows (#${failed})`,
      '## Remaining work',
      '- TODO: exponential backoff with jitter.',
    ].join('\n');
    const result = verify({ before, pinned: none, missingBeforeReinjection: [], outputText: framed(body) });
    assert.equal(result.ok, false);
    assert.deepEqual(
      result.contradictions.map(({ line, laterItemId }) => [line, laterItemId]),
      [
        ['TODO: exponential backoff with jitter.', id('now exponential')],
        [`Bash \`npm test\` failed: not ok 2 - backoff grows (#${failed})`, before.at(-1)?.id],
      ],
    );
    assert.match(result.contradictions[0]?.laterText ?? '', /now exponential with jitter/);
  });

  it("passes the same facts stated as they stand, and a model summary's own wording of them", () => {
    const ours = [
      '## Errors and root causes',
      `- Bash \`npm test\` failed: not ok 2 - backoff grows (passed later, #${before.at(-1)?.id}) (#${failed})`,
      '## Done',
      `- TODO: exponential backoff with jitter. — done (#${id('now exponential')}): The backoff is now exponential with jitter.`,
    ].join('\n');
    assert.deepEqual(verify({ before, pinned: none, missingBeforeReinjection: [], outputText: framed(ours) }).contradictions, []);
    const model = [
      '## Decisions and reasons',
      '- Exponential backoff with jitter, as the architecture doc says (#5).',
      '## Facts established',
      '- The backoff is now exponential with jitter; tests pass.',
    ].join('\n');
    const result = verify({ before, pinned: none, missingBeforeReinjection: [], outputText: framed(model) });
    assert.deepEqual(result.contradictions, []);
    assert.equal(result.ok, true);
  });

  it("flags a model's claim that the later word contradicts, in its own words and sections", () => {
    const model = ['## Key facts', '- Backoff still linear: not fixed yet.', '## Next steps', '- Implement exponential backoff with jitter.'].join('\n');
    const result = verify({ before, pinned: none, missingBeforeReinjection: [], outputText: framed(model) });
    assert.deepEqual(
      result.contradictions.map((entry) => entry.line),
      ['Implement exponential backoff with jitter.', 'Backoff still linear: not fixed yet.'],
    );
  });

  it('does not count a loop the input closed as open, before or after', () => {
    const pinned = { constraints: [], openLoops: [{ text: 'TODO: exponential backoff with jitter.', sourceId: id('TODO:') }] };
    // The loop is listed as done: still there word for word, not open on either side.
    const outputText = framed(
      `## Done\n- TODO: exponential backoff with jitter. — done (#${id('now exponential')}): The backoff is now exponential with jitter.`,
    );
    const result = verify({ before, pinned, missingBeforeReinjection: [], outputText });
    assert.deepEqual([result.openLoopsBefore, result.openLoopsAfter, result.ok], [0, 0, true]);
  });

  it('a question the person asked counts as open until a reply speaks to it', () => {
    const items = build([
      user('What is still open?'),
      assistant('Still open: the retry budget.'),
      user('Is the CSV export on the roadmap?'),
      assistant('Reading the formatter.'),
    ]).items;
    const asked = (text: string) => ({ text, sourceId: items.find((item) => item.text === text)?.id ?? -1 });
    const pinned = { constraints: [], openLoops: [asked('What is still open?'), asked('Is the CSV export on the roadmap?')] };
    const result = verify({ before: items, pinned, missingBeforeReinjection: [], outputText: 'Still open: the retry budget.' });
    // "Still open: the retry budget." only: the person's first question was answered by it.
    assert.equal(result.openLoopsBefore, 1);
    assert.equal(result.openLoopsAfter, 1);
  });
});
