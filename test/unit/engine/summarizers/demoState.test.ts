// Issue 23 on the bundled demo (focus "keep the retry decision"): the summary reports the state as
// of the latest word — the exponential backoff done at #36, the failed provider run with its
// passing re-run — says each thing once, and verification flags a summary that says otherwise.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { MemoryArchive } from '../../../../src/engine/archive';
import { compact } from '../../../../src/engine/compact';
import type { Context } from '../../../../src/engine/model';
import type { Summarizer } from '../../../../src/engine/summarizers/types';
import { readLiveContext } from '../../../../src/sessions/claude-code/liveContext';
import { engineContextOf } from '../../../../src/sessions/engineContext';

const DEMO = join(
  __dirname,
  '..',
  '..',
  '..',
  '..',
  'samples',
  'claude-config',
  'projects',
  '-home-user-payments-demo',
  'c6b61ed8-d74f-49a3-9726-211b52f81b9b.jsonl',
);
const FOCUS = 'keep the retry decision';

async function demoContext(): Promise<Context> {
  const live = await readLiveContext(DEMO);
  assert.ok(live.ok);
  return engineContextOf(live.value);
}

/** The summary body's sections, by title. */
function sections(text: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  let title = '';
  for (const line of text.split('\n')) {
    const heading = /^## (.+)$/.exec(line);
    if (heading) out.set((title = heading[1] ?? ''), []);
    else if (title && line.startsWith('- ')) out.get(title)?.push(line.slice(2));
  }
  return out;
}

describe('the demo: state, not history', () => {
  it('reports the backoff done at #36, the failed run with its re-run, each task once and no focus instruction as a fact', async () => {
    const context = await demoContext();
    const at36 = context.items.find((item) => item.id === 36);
    assert.match(at36?.text ?? '', /The backoff is now exponential with jitter/, 'the demo still has its #36');
    const result = await compact(context, { trigger: 'manual', focus: FOCUS }, { archive: new MemoryArchive() });
    assert.equal(result.status, 'compacted', result.message);
    assert.equal(result.items[36]?.fate, 'dropped', '#36 is summarised away');
    const text = result.summary?.text ?? '';
    const by = sections(text);

    assert.doesNotMatch(text, /still linear|not fixed yet/);
    assert.ok(!(by.get('Remaining work') ?? []).some((line) => /exponential backoff/i.test(line)), by.get('Remaining work')?.join('\n'));
    assert.ok(!(by.get('Open loops') ?? []).some((line) => /exponential backoff/i.test(line)));
    assert.ok(
      (by.get('Done') ?? []).some((line) => /^TODO: exponential backoff with jitter\. .*— done \(#36\): The backoff is now exponential with jitter/.test(line)),
      by.get('Done')?.join('\n'),
    );

    const task = by.get('Task and intent') ?? [];
    assert.equal(task.filter((line) => /fix the retry bug/i.test(line)).length, 1, task.join('\n'));
    assert.doesNotMatch(by.get('Facts established')?.join('\n') ?? '', /focus on/i);

    const failed = (by.get('Errors and root causes') ?? []).find((line) => line.includes('failed: not ok'));
    assert.match(failed ?? '', /test\/providers\.test\.ts failed: not ok 3 - braintree: amounts \(passed later, #88\) \(#78\)/);

    const verification = result.verification;
    assert.deepEqual(verification?.contradictions, []);
    assert.equal(verification?.ok, true);
    assert.ok((verification?.openLoopsAfter ?? 0) >= (verification?.openLoopsBefore ?? 1));
  });

  it('flags a model summary that states the stale backoff and lists the failed run as current, line by line', async () => {
    const stale: Summarizer = {
      name: 'stale-model',
      summarize: () =>
        Promise.resolve({
          ok: true,
          value: [
            '## Task and intent',
            '- Fix the retry bug in src/retry.ts, then audit the payment providers and make the backoff exponential with jitter.',
            '## Errors and root causes',
            '- Off-by-one attempt count: fixed. Backoff still linear: not fixed yet.',
            '- Bash tsx --test --test-reporter=tap test/providers.test.ts failed: not ok 3 - braintree: amounts (#78)',
            '## Remaining work',
            '- TODO: exponential backoff with jitter.',
          ].join('\n'),
        }),
    };
    const result = await compact(await demoContext(), { trigger: 'manual', focus: FOCUS }, { archive: new MemoryArchive(), summarizer: stale });
    assert.equal(result.summary?.summarizer, 'stale-model');
    const flagged = result.verification?.contradictions ?? [];
    assert.deepEqual(
      flagged.map((entry) => [entry.line, entry.laterItemId]),
      [
        ['TODO: exponential backoff with jitter.', 36],
        ['Off-by-one attempt count: fixed. Backoff still linear: not fixed yet.', 36],
        ['Bash tsx --test --test-reporter=tap test/providers.test.ts failed: not ok 3 - braintree: amounts (#78)', 88],
      ],
    );
    assert.equal(result.verification?.ok, false);
  });

  it('a later permission lifts an earlier prohibition; near-duplicate open loops are one (issue 41 item 9)', async () => {
    const context = await demoContext();
    const result = await compact(context, { trigger: 'manual' }, { archive: new MemoryArchive() });
    const by = sections(result.summary?.text ?? '');
    const constraints = by.get('Constraints') ?? [];
    // "Do not change any provider yet." was lifted by "Go ahead: remove the provider-level retry loops…".
    assert.ok(!constraints.includes('Do not change any provider yet.'), constraints.join('\n'));
    assert.ok(
      constraints.some((line) =>
        /^Revoked \(no longer applies\): "Do not change any provider yet\." — revoked by: "Go ahead: remove the provider-level retry loops/.test(line),
      ),
      constraints.join('\n'),
    );
    // Said in the same message as the permission, not lifted by it.
    assert.ok(constraints.includes('Do not touch the decline tables.'));
    assert.ok(!(result.verification?.constraints ?? []).some((entry) => entry.text === 'Do not change any provider yet.'));
    const loops = by.get('Open loops') ?? [];
    assert.equal(loops.filter((line) => /retry budget from config\/prod\.yaml/.test(line)).length, 1, loops.join('\n'));
    assert.equal(result.verification?.ok, true);
  });

  it('flags a summary that still lists the lifted prohibition as a constraint: stale in the summary', async () => {
    const stale: Summarizer = {
      name: 'stale-model',
      summarize: () =>
        Promise.resolve({
          ok: true,
          value: [
            '## Task and intent',
            '- Fix the retry bug in src/retry.ts, then audit the payment providers and remove their own retry loops.',
            '## Constraints',
            '- Do not change any provider yet.',
            '- Do not touch the decline tables.',
          ].join('\n'),
        }),
    };
    const result = await compact(await demoContext(), { trigger: 'manual' }, { archive: new MemoryArchive(), summarizer: stale });
    const flagged = result.verification?.contradictions ?? [];
    const lifted = flagged.find((entry) => entry.line === 'Do not change any provider yet.');
    assert.ok(lifted, JSON.stringify(flagged));
    assert.match(lifted.laterText, /^Go ahead: remove the provider-level retry loops/);
    assert.equal(result.verification?.ok, false);
  });
});
