// Issue 13: a cleared or stubbed output names what it was and the archive entry that holds it.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MemoryArchive } from '../../../../src/engine/archive';
import { compact } from '../../../../src/engine/compact';
import { describeOutput, PENDING_ARCHIVE_ID } from '../../../../src/engine/ladder/stubText';
import { charEstimateTokenizer as tokenizer } from '../../../../src/engine/tokens/tokenizer';
import { assistant, big, build, call, read, results, user } from '../support/build';

const numbered = (from: number, to: number): string => Array.from({ length: to - from + 1 }, (_, index) => `${from + index}\tline ${from + index}`).join('\n');

describe('stubs that say what they were', () => {
  it("names the tool, the path and line range or the command, the size, a failure's verdict and the ref", () => {
    const context = build([
      user('go'),
      ...read('r1', '/w/a.ts', numbered(40, 120), { offset: 40, limit: 81 }),
      assistant(call('b1', 'Bash', { command: 'npm test' })),
      results({ id: 'b1', output: 'Exit code 1\nnot ok 3 - parses dates\n# fail 1', isError: true }),
    ]);
    const [readResult, bashResult] = context.items.filter((item) => item.kind === 'tool_result');
    const calls = context.items.filter((item) => item.kind === 'tool_use');
    assert.ok(readResult && bashResult);
    assert.match(
      describeOutput(readResult, calls[0]),
      new RegExp(`^Read /w/a\\.ts lines 40–120 \\([\\d,]+ bytes, ~[\\d,]+ tokens\\); ref: ${PENDING_ARCHIVE_ID}#${readResult.id}$`),
    );
    assert.match(
      describeOutput(bashResult, calls[1], 'a1'),
      new RegExp(`^Bash \`npm test\` failed: Exit code 1; not ok 3 - parses dates \\(.*\\); ref: a1#${bashResult.id}$`),
    );
  });

  it('cites the archive entry once compact has archived the context, and nothing without an archive', async () => {
    const context = build(
      [
        user('go'),
        ...Array.from({ length: 6 }, (_, index) => read(`r${index}`, `/w/f${index}.ts`, big(`f${index}`, 4_000))).flat(),
        assistant('done'),
        user('next'),
        assistant('ok'),
      ],
      { windowTokens: 8_000 },
    );
    const options = { trigger: 'manual' as const, explicitTarget: true, targetPercent: 50, summary: { enabled: false }, ageClear: { clearAtLeastTokens: 0 } };
    const archive = new MemoryArchive();
    const archived = await compact(context, options, { tokenizer, archive });
    const stubs = archived.after.items.filter((item) => item.kind === 'tool_result' && item.text.startsWith('[Old tool result content cleared]'));
    assert.ok(stubs.length > 0);
    const id = archived.archive?.id ?? '';
    for (const stub of stubs) {
      const ref = /ref: ([\w-]+)#(\d+)$/.exec(stub.text);
      assert.equal(ref?.[1], id);
      // The ref points at the original output: the file the stub names is the one the archived item read.
      const entry = await archive.get(id);
      const file = /\/w\/(f\d)\.ts/.exec(stub.text)?.[1];
      assert.equal(entry?.context.items[Number(ref?.[2])]?.text.split('\n')[0], file);
    }
    const books = Object.values(archived.metrics.perTier).reduce((sum, tier) => sum + tier.tokensSaved, 0) - archived.metrics.reinjectedTokens;
    assert.equal(books, archived.metrics.savedTokens, 'the books still balance after the ref is filled in');
    const bare = await compact(context, options, { tokenizer });
    assert.ok(bare.after.items.every((item) => !item.text.includes('ref: ')));
  });
});
