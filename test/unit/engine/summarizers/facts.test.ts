import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isFailure, spanFacts, workspaceOf } from '../../../../src/engine/summarizers/facts';
import { checkSummary } from '../../../../src/engine/summarizers/repair';
import type { SummaryRequest } from '../../../../src/engine/summarizers/types';
import { assistant, build, call, results, user } from '../support/build';

const context = build([
  user('Fix diff.'),
  assistant(
    'Replacing the max subcommand with bump because nobody calls max. Found it: the changelog lives in docs/CHANGES.md.',
    call('r1', 'Read', { file_path: '/w/vendor/a.js' }),
  ),
  results({ id: 'r1', output: '1\tthrow new Error("bad version");\n2\t// error handling' }),
  assistant(call('r2', 'Read', { file_path: '/w/vendor/a.js' })),
  results({ id: 'r2', output: '1\tthrow new Error("bad version");' }),
  assistant(call('b1', 'Bash', { command: 'node test/run.mjs' })),
  results({ id: 'b1', output: 'Exit code 1\nTAP version 13\nok 8 - diff prerelease bump\nnot ok 9 - diff prerelease to release\n# fail 1', isError: true }),
  assistant('Test 9 fails because diff() returns preminor for equal tuples. TODO: update the README.'),
  assistant(call('e1', 'Edit', { file_path: '/w/src/diff.js', old_string: 'a', new_string: 'b' })),
  results({ id: 'e1', output: 'The file /w/src/diff.js has been updated successfully.' }),
  assistant(call('b2', 'Bash', { command: 'node test/run.mjs' })),
  results({ id: 'b2', output: 'ok 9 - diff prerelease to release\n# fail 0' }),
]);
const items = context.items.filter((item) => item.kind !== 'system');

describe('facts a summary must carry (issue 13)', () => {
  it('errors are failing runs with their verdict lines and the stated cause, not file content that says "error"', () => {
    assert.deepEqual(
      items.filter(isFailure).map((item) => item.toolName),
      ['Bash'],
    );
    const [error] = spanFacts(items).errors;
    assert.match(
      error ?? '',
      /^Bash node test\/run\.mjs failed: not ok 9 - diff prerelease to release — cause: Test 9 fails because diff\(\) returns preminor for equal tuples\. \(passed later, #\d+\) \(#\d+\)$/,
    );
  });

  it('files changed come first, then those read again and again, relative to the workspace', () => {
    assert.equal(workspaceOf(['/w/vendor/a.js', '/w/src/diff.js']), '/w');
    assert.equal(workspaceOf(['/w/src/a.js', '/w/src/b.js']), '/w/src', 'the shared folder');
    assert.equal(workspaceOf(['/w/src/a.js']), undefined);
    assert.deepEqual(
      spanFacts(items).files.map((file) => [file.path, file.writes, file.reads]),
      [
        ['src/diff.js', 1, 0],
        ['vendor/a.js', 0, 2],
      ],
    );
  });

  it("decisions with reasons, facts and the agent's open loops", () => {
    const facts = spanFacts(items);
    assert.match(facts.decisions[0] ?? '', /^Replacing the max subcommand with bump because nobody calls max\. \(#\d+\)$/);
    assert.match(facts.facts[0] ?? '', /the changelog lives in docs\/CHANGES\.md/);
    assert.deepEqual(facts.agentLoops, ['TODO: update the README.']);
  });
});

describe('a model summary is checked (issue 13)', () => {
  const request: SummaryRequest = {
    items,
    focus: '',
    pinned: { constraints: [{ text: 'Never add dependencies.' }], openLoops: [] },
    markers: [],
    maxTokens: 2_000,
    prompt: '',
  };
  const shaped =
    '## Task and intent\n- Fix the diff subcommand so that a prerelease going to its own release is reported as a prerelease change, then run the tests again to confirm the fix.';

  it('rejects a reply of a few words or without any structure', () => {
    assert.deepEqual(checkSummary('Summary done.', request), { verdict: 'rejected', why: 'malformed (2 words, no sections or bullets)' });
    assert.equal(checkSummary('word '.repeat(40), request).verdict, 'rejected');
  });

  it('repairs what it dropped from the extracted facts, in our sections', () => {
    const check = checkSummary(shaped, request);
    assert.equal(check.verdict, 'repaired');
    if (check.verdict !== 'repaired') return;
    assert.deepEqual(check.added, ['Constraints: 1', 'Open loops: 1', 'Files: 1', 'Errors and root causes: 1']);
    assert.match(check.text, /## Constraints\n- Never add dependencies\./);
    assert.match(check.text, /## Files\n- src\/diff\.js — modified/);
    const complete = `${check.text}`;
    assert.deepEqual(checkSummary(complete, request), { verdict: 'ok' });
  });
});
