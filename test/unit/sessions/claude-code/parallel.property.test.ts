// Property: whatever the shape of parallel tool calls (how many per response, which order the
// results are written in, how many responses), the live context pairs every tool_use with its
// tool_result, and a fork written from a compaction of it reads back with every pair intact.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { compact } from '../../../../src/engine';
import { readLiveContext } from '../../../../src/sessions/claude-code/liveContext';
import { writeFork } from '../../../../src/sessions/claude-code/fork';
import { engineContextOf } from '../../../../src/sessions/engineContext';
import { forkRequestFromResult } from '../../../../src/sessions/claude-code/engineContext';
import type { LiveContext } from '../../../../src/sessions/types';
import { TranscriptBuilder, tempDir } from './builders';

/** One response: how many calls, and a permutation of the order their results are written in. */
const response = fc
  .integer({ min: 1, max: 5 })
  .chain((calls) =>
    fc.tuple(fc.constant(calls), fc.shuffledSubarray([...Array(calls).keys()], { minLength: calls, maxLength: calls }), fc.integer({ min: 50, max: 3000 })),
  );

function pairs(live: LiveContext): { uses: string[]; results: string[] } {
  return { uses: live.entries.flatMap((entry) => entry.toolUseIds).sort(), results: live.entries.flatMap((entry) => entry.toolResultIds).sort() };
}

describe('parallel tool call trees (property)', () => {
  it('pair every call with its result in the live context and in a fork', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(response, { minLength: 1, maxLength: 6 }), fc.boolean(), async (responses, promptBetween) => {
        const builder = new TranscriptBuilder();
        builder.user('Investigate the parser');
        let input = 1000;
        responses.forEach(([calls, order, size], index) => {
          const ids = [...Array(calls).keys()].map((call) => `toolu_${index}_${call}`);
          input += calls * size;
          builder.parallel(
            `msg_${index}`,
            ids.map((id) => ({ id, result: `${id} `.repeat(size / 8) })),
            { input, output: 40 },
            order,
          );
          if (promptBetween && index % 2 === 1) {
            builder.text(`msg_${index}_text`, 'Noted.', { input: input + 10, output: 5 });
            builder.user(`Next step ${index}`);
          }
        });
        builder.text('msg_end', 'Done.', { input: input + 50, output: 5 });
        const live = await readLiveContext(builder.write(tempDir('cl-prop-parallel-')));
        assert.ok(live.ok);
        const { uses, results } = pairs(live.value);
        assert.deepEqual(results, uses);
        assert.deepEqual(live.value.diagnostics, []);

        const context = engineContextOf(live.value);
        const result = await compact(context, {
          trigger: 'manual',
          targetTokens: Math.round(context.usedTokens / 3),
          explicitTarget: true,
          preserve: { recentTurns: 1, recentPercent: 0 },
        });
        if (result.status !== 'compacted') return;
        const request = await forkRequestFromResult({ live: live.value, context, result });
        assert.ok(request.ok, request.ok ? '' : request.error.message);
        const fork = await writeFork(request.value);
        assert.ok(fork.ok, fork.ok ? '' : fork.error.message);
        const forked = await readLiveContext(fork.value.path);
        assert.ok(forked.ok);
        const after = pairs(forked.value);
        assert.deepEqual(after.results, after.uses);
        assert.deepEqual(forked.value.diagnostics, []);
      }),
      { numRuns: 60 },
    );
  });
});
