import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { messagesFromChain } from '../../../../src/sessions/claude-code/messages';
import type { LocatedRecord } from '../../../../src/sessions/claude-code/records';
import { TranscriptBuilder, basicSession } from './builders';

function chainOf(builder: TranscriptBuilder): LocatedRecord[] {
  return builder.lines.map((line, index) => ({ record: JSON.parse(line), line: index + 1, offset: 0, end: 0 }));
}

describe('messagesFromChain', () => {
  it('merges streamed lines of one response and keeps one entry per message', () => {
    const built = messagesFromChain(chainOf(basicSession()));
    assert.deepEqual(
      built.messages.map((message) => [message.role, message.content.map((block) => block.type).join('+')]),
      [
        ['user', 'text'],
        ['assistant', 'text+tool_use'],
        ['user', 'tool_result'],
        ['assistant', 'text'],
      ],
    );
    assert.deepEqual(
      built.entries.map((entry) => entry.kind),
      ['user', 'assistant', 'tool-result', 'assistant'],
    );
    assert.deepEqual(built.entries[1]?.lines, [2, 3]);
    assert.deepEqual(built.entries[1]?.toolUseIds, ['toolu_1']);
    assert.deepEqual(built.entries[2]?.toolResultIds, ['toolu_1']);
    assert.deepEqual(built.diagnostics, []);
  });

  it('joins a response split around its tool results, and user-side records into one turn', () => {
    const builder = new TranscriptBuilder();
    builder.user('go');
    builder.assistant('m1', [{ type: 'tool_use', id: 'a', name: 'Read', input: {} }], { input: 1, output: 1 });
    builder.toolResult('a', 'ra');
    builder.assistant('m1', [{ type: 'tool_use', id: 'b', name: 'Read', input: {} }], { input: 1, output: 2 });
    builder.toolResult('b', 'rb');
    builder.record({ type: 'attachment', uuid: 'att', parentUuid: builder.head, rendered: [{ content: '<system-reminder>\nx\n</system-reminder>' }] });
    builder.user('meta', { isMeta: true });
    const built = messagesFromChain(chainOf(builder));
    assert.deepEqual(
      built.messages.map((message) => message.role),
      ['user', 'assistant', 'user'],
    );
    assert.deepEqual(built.entries[1]?.toolUseIds, ['a', 'b']);
    assert.deepEqual(built.entries[2]?.recordKinds, ['tool-result', 'tool-result', 'attachment', 'meta']);
    assert.equal(built.entries[2]?.kind, 'tool-result');
    assert.deepEqual(built.diagnostics, []);
  });

  it('reports orphans, but not a tool call still running', () => {
    const builder = new TranscriptBuilder();
    builder.user('go');
    builder.toolUse('m1', 'lost', { input: 1, output: 1 });
    builder.toolResult('never-asked', 'x');
    builder.toolUse('m2', 'running', { input: 1, output: 1 });
    const built = messagesFromChain(chainOf(builder));
    assert.deepEqual(
      built.diagnostics.map((diagnostic) => [diagnostic.code, diagnostic.line]),
      [
        ['orphan-tool-use', 2],
        ['orphan-tool-result', 3],
      ],
    );
  });

  it('skips bookkeeping: attachments without rendered text, system lines, API errors', () => {
    const builder = new TranscriptBuilder();
    builder.user('go');
    builder.record({ type: 'attachment', uuid: 'snap', parentUuid: builder.head, attachment: { type: 'prompt_snapshot' } });
    builder.record({ type: 'system', subtype: 'turn_duration', uuid: 'sys', parentUuid: 'snap' });
    builder.record({
      type: 'assistant',
      uuid: 'err',
      parentUuid: 'sys',
      isApiErrorMessage: true,
      message: { role: 'assistant', content: [{ type: 'text', text: 'API Error' }] },
    });
    assert.equal(messagesFromChain(chainOf(builder)).messages.length, 1);
  });
});
