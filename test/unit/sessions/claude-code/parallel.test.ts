// Parallel tool calls: the records of one response form a small tree (each result hangs off its own
// tool_use line). The live context must hold every call with its result, as Claude Code sends them.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readLiveContext } from '../../../../src/sessions/claude-code/liveContext';
import { TranscriptBuilder, tempDir } from './builders';

function parallelSession(order?: number[]): TranscriptBuilder {
  const builder = new TranscriptBuilder();
  builder.user('Read the three modules');
  builder.parallel(
    'msg_p',
    [
      { id: 'toolu_a', result: 'A'.repeat(400) },
      { id: 'toolu_b', result: 'B'.repeat(400) },
      { id: 'toolu_c', result: 'C'.repeat(400) },
    ],
    { input: 10, cacheCreation: 2000, output: 90 },
    order,
  );
  builder.text('msg_after', 'All three read.', { input: 5, cacheRead: 2400, output: 8 });
  return builder;
}

describe('parallel tool calls', () => {
  for (const [name, order] of [
    ['in call order', undefined],
    ['in another order', [2, 0, 1]],
  ] as const) {
    it(`joins every sibling result to its response (results written ${name})`, async () => {
      const result = await readLiveContext(parallelSession(order ? [...order] : undefined).write(tempDir()));
      assert.ok(result.ok);
      const context = result.value;
      assert.deepEqual(
        context.messages.map((message) => message.role),
        ['user', 'assistant', 'user', 'assistant'],
      );
      assert.deepEqual(context.entries[1]?.toolUseIds, ['toolu_a', 'toolu_b', 'toolu_c']);
      assert.deepEqual([...(context.entries[2]?.toolResultIds ?? [])].sort(), ['toolu_a', 'toolu_b', 'toolu_c']);
      assert.deepEqual(context.diagnostics, []);
    });
  }

  it('joins the siblings when the session stops right after the results', async () => {
    const builder = parallelSession();
    builder.lines.pop();
    const result = await readLiveContext(builder.write(tempDir()));
    assert.ok(result.ok);
    assert.deepEqual([...(result.value.entries[2]?.toolResultIds ?? [])].sort(), ['toolu_a', 'toolu_b', 'toolu_c']);
    assert.deepEqual(result.value.diagnostics, []);
  });

  it('counts the sibling results in what was written since the last response', async () => {
    const builder = parallelSession();
    builder.lines.pop();
    const result = await readLiveContext(builder.write(tempDir()));
    assert.ok(result.ok);
    // Three results of 400 characters: ~100 tokens each at four characters a token.
    assert.ok(result.value.fill.pendingTokens >= 300, `pending ${result.value.fill.pendingTokens}`);
  });
});
