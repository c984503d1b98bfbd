import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { contextFromMessages, markBlock } from '../../../src/engine/fromMessages';
import { charEstimateTokenizer } from '../../../src/engine/tokens/tokenizer';
import { assistant, call, results, user } from './support/build';

describe('contextFromMessages', () => {
  const input = {
    system: [{ type: 'text', text: 'system prompt' }],
    tools: [{ name: 'Read', input_schema: {} }],
    messages: [
      user('Fix it.'),
      assistant({ type: 'thinking', thinking: 'hmm', signature: 's' }, 'Reading.', call('u1', 'Read', { file_path: '/a/./b.ts', offset: 1 })),
      {
        role: 'user' as const,
        content: [
          { type: 'tool_result', tool_use_id: 'u1', content: [{ type: 'text', text: 'body' }], is_error: true },
          { type: 'text', text: '<system-reminder>x</system-reminder>' },
        ],
      },
      user('This session is being continued from a previous conversation. Summary...'),
      user('Next step.'),
    ],
    windowTokens: 200_000,
    sourceRefs: [['u-1'], ['a-1', 'a-2']],
    tokenizer: charEstimateTokenizer,
  };

  it('makes one item per block with kinds, turns, links and source refs', () => {
    const context = contextFromMessages(input);
    assert.deepEqual(
      context.items.map((item) => `${item.kind}@${item.turn}`),
      ['system@0', 'tools@0', 'user@1', 'thinking@1', 'assistant@1', 'tool_use@1', 'tool_result@1', 'reminder@1', 'summary@1', 'user@2'],
    );
    const result = context.items.find((item) => item.kind === 'tool_result');
    assert.deepEqual(
      [result?.toolName, result?.toolCategory, result?.resourceKey, result?.isError, result?.text],
      ['Read', 'file_read', 'file:/a/b.ts#1+', true, 'body'],
    );
    assert.deepEqual(context.items[3]?.sourceRef, ['a-1', 'a-2']);
    assert.ok(context.items.every((item, index) => item.id === index));
    assert.equal(context.usedSource, 'estimate');
  });

  it('scales item tokens to the exact usage total', () => {
    const context = contextFromMessages({ ...input, usedTokens: 5_000 });
    assert.equal(
      context.items.reduce((sum, item) => sum + item.tokens, 0),
      5_000,
    );
    assert.equal(context.usedSource, 'usage');
    assert.ok(context.tokenScale > 1);
  });

  it('marks the blocks the adapter names as summary, not the rest of their message', () => {
    const summary = markBlock({ type: 'text', text: 'Earlier work, summarised.' }, 'summary');
    const context = contextFromMessages({
      ...input,
      messages: [...input.messages, { role: 'user' as const, content: [summary, { type: 'text', text: 'Kept prompt.' }] }],
    });
    assert.deepEqual(
      context.items.slice(-2).map((item) => item.kind),
      ['summary', 'user'],
    );
    assert.ok(results({ id: 'x', output: '' }));
  });
});
