import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { HeuristicSummarizer, MemoryArchive, resolveOptions, type Summarizer } from '../../../../src/engine';
import { compactOptionsOf, runCompaction } from '../../../../src/host/compaction/run';
import { assistant, big, build, read, user } from '../../engine/support/build';

const context = () =>
  build(
    [
      user('Fix the retry.'),
      ...read('t1', '/w/retry.ts', big('v1', 6_000)),
      assistant('Looked at it.'),
      user('go on'),
      ...read('t2', '/w/other.ts', big('v2', 6_000)),
      assistant('Done.'),
      user('and now?'),
      assistant('Done again.'),
    ],
    { windowTokens: 10_000 },
  );

const engine = { preserve: { recentTurns: 1, recentPercent: 0 } };
const heuristic = { name: 'heuristic', summarizer: new HeuristicSummarizer() };

describe('a Compact… run', () => {
  it("is a manual compaction with the given focus over the settings' engine knobs", () => {
    const options = resolveOptions(compactOptionsOf({ ...engine, targetPercent: 40 }, 'keep the retry decision'));
    assert.equal(options.trigger, 'manual');
    assert.equal(options.focus, 'keep the retry decision');
    assert.equal(options.targetPercent, 40);
    assert.equal(options.preserve.recentTurns, 1);
  });

  it('ends in a preview of its result', async () => {
    const outcome = await runCompaction({
      id: 'p1',
      focus: 'retry',
      engine,
      summarizer: heuristic,
      context: context(),
      archive: new MemoryArchive(),
      signal: new AbortController().signal,
    });
    assert.ok(!outcome.cancelled);
    assert.equal(outcome.preview.id, 'p1');
    assert.equal(outcome.preview.focus, 'retry');
    assert.equal(outcome.preview.status, 'compacted');
    assert.equal(outcome.preview.summaryFallback, null);
  });

  it('ends in no preview when the person cancelled, although the summarizer fell back and the engine finished', async () => {
    const controller = new AbortController();
    // An LLM summarizer that is still working when the person cancels; the signal ends it.
    const slow: Summarizer = {
      name: 'anthropic',
      summarize: (_request, signal) => {
        setImmediate(() => controller.abort());
        return new Promise((resolve) => signal.addEventListener('abort', () => resolve({ ok: false, error: 'anthropic: aborted' }), { once: true }));
      },
    };
    const outcome = await runCompaction({
      id: 'p1',
      focus: '',
      engine,
      summarizer: { name: 'anthropic', summarizer: slow },
      context: context(),
      archive: new MemoryArchive(),
      signal: controller.signal,
    });
    assert.equal(outcome.cancelled, true);
    assert.equal(outcome.result.summary?.fellBack, true, 'the engine fell back to the heuristic');
    assert.ok(!('preview' in outcome));
  });
});
