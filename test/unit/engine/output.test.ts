import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MemoryArchive, newArchiveId } from '../../../src/engine/archive';
import { unifiedDiff } from '../../../src/engine/diff';
import { anthropicFormatter, contextAfter } from '../../../src/engine/output';
import { missingPins, verify } from '../../../src/engine/verify';
import { build, read, user } from './support/build';

describe('anthropicFormatter', () => {
  it('merges adjacent same-role items and puts tool results first', () => {
    const conversation = anthropicFormatter([
      { kind: 'system', role: 'system', text: 's', tokens: 1, changed: true },
      { kind: 'user', role: 'user', text: 'ask', tokens: 1, changed: true },
      { kind: 'summary', role: 'user', text: 'summary', tokens: 1, changed: true },
    ]);
    assert.deepEqual(conversation, {
      system: [{ type: 'text', text: 's' }],
      tools: [],
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'ask' },
            { type: 'text', text: 'summary' },
          ],
        },
      ],
    });
  });

  it('rewrites changed tool results and keeps unchanged blocks as they were', () => {
    const context = build([user('go'), ...read('r', '/a', 'content')]);
    const result = context.items.find((item) => item.kind === 'tool_result');
    const conversation = anthropicFormatter([{ kind: 'tool_result', role: 'user', text: 'stub', tokens: 1, original: result, changed: true }]);
    assert.deepEqual(conversation.messages[0]?.content[0], { type: 'tool_result', tool_use_id: 'r', content: 'stub' });
    const after = contextAfter(context, [{ kind: 'tool_result', role: 'user', text: 'stub', tokens: 1, original: result, changed: true }]);
    assert.deepEqual([after.items[0]?.id, after.items[0]?.block, after.usedTokens], [0, undefined, 1]);
  });
});

describe('unifiedDiff', () => {
  it('diffs changed slots only, at the right lines, with secrets redacted', () => {
    const diff = unifiedDiff([
      { before: 'a\nb\n', after: 'a\nb\n' },
      { before: 'key sk-ant-abcdefghijkl\n', after: 'stub\n' },
      { before: '', after: 'new\n' },
    ]);
    assert.equal(
      diff,
      ['--- context (before)', '+++ context (after)', '@@ -3,1 +3,1 @@', '-key [REDACTED]', '+stub', '@@ -3,0 +4,1 @@', '+new', ''].join('\n'),
    );
    assert.equal(unifiedDiff([{ before: 'x\n', after: 'x\n' }]), '');
  });
});

describe('verify', () => {
  it('checks constraints verbatim, open loops and file paths', () => {
    const before = build([user('Never push. TODO: docs'), ...read('r', '/src/a.ts', 'x')]).items;
    const pinned = { constraints: [{ text: 'Never push.' }], openLoops: [{ text: 'TODO: docs' }] };
    assert.deepEqual(missingPins(pinned, 'Never push.'), ['TODO: docs']);
    const result = verify({ before, pinned, missingBeforeReinjection: [], outputText: 'Never push. TODO: docs /src/a.ts' });
    assert.equal(result.ok, true);
    const lossy = verify({ before, pinned, missingBeforeReinjection: ['TODO: docs'], outputText: 'Never push.' });
    assert.deepEqual([lossy.ok, lossy.openLoopsBefore, lossy.openLoopsAfter, lossy.filesLost], [false, 1, 0, ['/src/a.ts']]);
  });
});

describe('archive', () => {
  it('stores and returns entries with sortable ids', async () => {
    const archive = new MemoryArchive();
    const ref = await archive.put({ createdAt: '2026-01-01T00:00:00.000Z', reason: 'manual', context: build([user('x')]) });
    assert.equal((await archive.get(ref.id))?.reason, 'manual');
    assert.ok(newArchiveId(new Date('2026-01-01T00:00:00Z')) < newArchiveId(new Date('2026-01-02T00:00:00Z')));
  });
});
