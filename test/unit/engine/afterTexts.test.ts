import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { afterTexts, compact, contextFromMessages } from '../../../src/engine';

const read = (id: string, path: string) => ({ type: 'tool_use', id, name: 'Read', input: { file_path: path } });
const result = (id: string, text: string) => ({ type: 'tool_result', tool_use_id: id, content: text });

describe('afterTexts', () => {
  it('maps every compacted item to its new text', async () => {
    const big = 'export const x = 1;\n'.repeat(400);
    const context = contextFromMessages({
      windowTokens: 20_000,
      messages: [
        { role: 'user', content: 'Fix src/a.ts. Never touch config/prod.yaml.' },
        { role: 'assistant', content: [read('t1', '/p/src/a.ts')] },
        { role: 'user', content: [result('t1', big)] },
        { role: 'assistant', content: [read('t2', '/p/src/a.ts')] },
        { role: 'user', content: [result('t2', big)] },
        { role: 'assistant', content: 'Done.' },
      ],
      sourceRefs: [['u1'], ['a1'], ['r1'], ['a2'], ['r2'], ['a3']],
    });
    const compacted = await compact(context, { trigger: 'manual', summary: { enabled: false }, preserve: { recentTurns: 0, recentPercent: 0 } });
    assert.equal(compacted.status, 'compacted', compacted.message);
    const texts = afterTexts(compacted);
    assert.ok(texts);
    const stubbed = compacted.items.filter((item) => item.fate === 'compacted').map((item) => item.id);
    assert.deepEqual([...texts.compacted.keys()], stubbed);
    for (const id of stubbed) assert.ok((texts.compacted.get(id) ?? big).length < (context.items[id]?.text.length ?? 0), `#${id} became shorter`);
    // The superseded first read became a stub.
    assert.ok([...texts.compacted.values()].some((text) => text.includes('[COMPACTED]')));
  });

  it('is null for a result whose after-context does not line up', async () => {
    const context = contextFromMessages({ windowTokens: 20_000, messages: [{ role: 'user', content: 'hi' }], sourceRefs: [['u1']] });
    const done = await compact(context, { trigger: 'manual' });
    assert.equal(afterTexts({ ...done, items: [...done.items, ...done.items] }), null);
  });
});
