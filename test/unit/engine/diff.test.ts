import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { diffLines } from 'diff';
import { charEstimateTokenizer, compact, MemoryArchive } from '../../../src/engine';
import { afterTexts } from '../../../src/engine/afterTexts';
import {
  CHANGED_LINES_BUDGET,
  diffSides,
  diffSlots,
  itemHeader,
  LINE_MAX_CHARS,
  originalHeader,
  unifiedDiff,
  wrapLongLines,
  writtenHeader,
} from '../../../src/engine/diff';
import type { Context, ContextItem } from '../../../src/engine/model';
import type { CompactionResult, ItemFate } from '../../../src/engine/result';
import { assistant, big, build, call, read, results, user } from './support/build';

const SECRET = 'password=hunter2';

/** A session Compact… summarises (#2–#8), stubs (#11, superseded) and truncates (#13) parts of. */
async function compacted(): Promise<{ context: Context; result: CompactionResult }> {
  const lines = Array.from({ length: 300 }, (_, index) => `line ${index} of retry.ts`).join('\n');
  const log = Array.from({ length: 2_000 }, (_, index) => `test ${index} ok`).join('\n');
  const context = build(
    [
      user('Fix the retry. Never touch config/prod.yaml.'),
      ...read('t1', '/w/retry.ts', `${lines}\n${SECRET}`),
      assistant('Looked at it: the backoff is linear.'),
      user('go on'),
      ...read('t2', '/w/retry.ts', big('v2', 6_000)),
      assistant('Wait, actually the timing is off.'),
      user('and now? run the tests'),
      assistant(call('t3', 'Bash', { command: 'npm test' })),
      results({ id: 't3', output: log }),
      assistant(call('t4', 'Bash', { command: 'npm test' })),
      results({ id: 't4', output: `${log}\nall ok` }),
      assistant('Done.'),
    ],
    { windowTokens: 10_000, sourceRefs: Array.from({ length: 15 }, (_, index) => [`uuid-${index}`]) },
  );
  const result = await compact(
    context,
    { trigger: 'manual', focus: 'keep the retry decision', preserve: { recentTurns: 1, recentPercent: 0 } },
    { archive: new MemoryArchive(), tokenizer: charEstimateTokenizer },
  );
  assert.equal(result.status, 'compacted', result.message);
  return { context, result };
}

const slotsOf = (context: Context, result: CompactionResult) =>
  diffSlots(context.items, result.items, afterTexts(result) ?? assert.fail('aligned')) ?? assert.fail('slots');

const headerLines = (text: string): string[] => text.split('\n').filter((line) => /^=== #\d+ /.test(line) && !line.endsWith(' before compaction ==='));

describe('diffSlots', () => {
  it('gives kept items the same header and lines on both sides, in order, and the summary once', async () => {
    const { context, result } = await compacted();
    const slots = diffSlots(context.items, result.items, afterTexts(result) ?? assert.fail('aligned'));
    assert.ok(slots);
    const { before, after } = diffSides(slots);
    const fates = new Map(result.items.map((fate) => [fate.id, fate.fate]));
    const survivors = context.items.filter((item) => fates.get(item.id) !== 'dropped');
    assert.deepEqual(
      headerLines(after),
      survivors.map((item) => itemHeader(item)),
    );
    assert.deepEqual(
      headerLines(before),
      context.items.map((item) => itemHeader(item)),
    );
    for (const item of context.items.filter((entry) => fates.get(entry.id) === 'preserved')) {
      const block = `${itemHeader(item)}\n${item.text}\n\n`;
      assert.ok(before.includes(block) && after.includes(block), `#${item.id} is the same on both sides`);
    }
    // The summary: once, quoted, on the after side only, under a header both sides carry.
    assert.ok(result.summary);
    const firstLine = result.summary.text.split('\n')[0] ?? '';
    assert.equal(after.split(`\n> ${firstLine}\n`).length, 2);
    assert.ok(!before.includes(`> ${firstLine}`));
    assert.equal(before.split(`${writtenHeader('summary')}\n`).length, 2);
    assert.equal(after.split(`${writtenHeader('summary')}\n`).length, 2);
    // A compacted item: its new text right under its header, its original under a second header.
    const texts = afterTexts(result);
    assert.deepEqual([...(texts?.compacted.keys() ?? [])], [11, 13], 'a stub and a truncation');
    assert.ok(texts);
    for (const [id, text] of texts.compacted) {
      const item = context.items[id] as ContextItem;
      assert.ok(after.includes(`${itemHeader(item)}\n> ${text.split('\n')[0] ?? ''}`), `#${id} shows its new text under its header`);
      assert.ok(before.includes(`${itemHeader(item)}\n${originalHeader(item)}\n`) && after.includes(`\n${originalHeader(item)}\n\n`));
    }
    assert.ok(!before.includes('hunter2') && !after.includes('hunter2'), 'secrets are redacted');
  });

  it('lays every change out as a plain deletion or insertion, apart from each other', async () => {
    const { context, result } = await compacted();
    const { before, after } = diffSides(slotsOf(context, result));
    const changes = diffLines(before, after);
    changes.forEach((change, index) =>
      assert.ok(!(change.removed && changes[index + 1]?.added) && !(change.added && changes[index + 1]?.removed), `no replaced block at change ${index}`),
    );
  });

  it('shows a long original up to its share of the budget and says how much is left out', async () => {
    const { context, result } = await compacted();
    const { before } = diffSides(slotsOf(context, result));
    const share = Math.floor(CHANGED_LINES_BUDGET / result.items.filter((fate) => fate.fate !== 'preserved').length);
    assert.ok(share < 300, `${share} lines each`);
    assert.ok(before.includes(`line ${share - 1} of retry.ts\n… ${301 - share} more lines`), 'the first lines, then what is left out');
    assert.ok(!before.includes(`line ${share} of retry.ts`));
  });

  it('feeds the CLI unified diff the same slots', async () => {
    const { context, result } = await compacted();
    assert.equal(result.diff, unifiedDiff(slotsOf(context, result)), 'the plan and the result read back give the same diff');
    assert.match(result.diff, /^\+> /m);
  });
});

describe('diffSlots past the budget', () => {
  it('gives each run of dropped items one header when there are too many to show one by one', () => {
    const texts = Array.from({ length: 1_200 }, (_, id) => `item ${id}\nsecond line`);
    const fates = texts.map((_, id) => (id >= 100 && id < 1_100 && id !== 600 ? 'dropped' : 'preserved'));
    const { context, result } = synthetic(texts, fates, 1_100);
    const { before, after } = diffSides(diffSlots(context.items, result.items, afterTexts(result) ?? assert.fail('aligned')) ?? []);
    assert.ok(before.includes('=== #100–#599: 500 items dropped ===\n\n=== #600 '));
    assert.ok(before.includes('=== #601–#1099: 499 items dropped ===\n\n=== new summary ===\n\n=== #1100 '));
    assert.equal(
      diffLines(before, after)
        .filter((change) => change.removed)
        .reduce((sum, change) => sum + (change.count ?? 0), 0),
      4,
    );
  });
});

describe('wrapLongLines', () => {
  it('cuts long lines the same way every time, keeping surrogate pairs whole', () => {
    const line = 'a'.repeat(LINE_MAX_CHARS * 2 + 5);
    assert.deepEqual(
      wrapLongLines(`x\n${line}`)
        .split('\n')
        .map((part) => part.length),
      [1, LINE_MAX_CHARS, LINE_MAX_CHARS, 5],
    );
    const emoji = `${'b'.repeat(9)}😀c`;
    assert.deepEqual(wrapLongLines(emoji, 10).split('\n'), ['b'.repeat(9), '😀c']);
    assert.equal(wrapLongLines('short'), 'short');
  });
});

/** A context and a result with arbitrary fates, without running the engine. */
function synthetic(texts: string[], fates: ItemFate['fate'][], summaryAt: number | null): { context: { items: ContextItem[] }; result: CompactionResult } {
  const items = texts.map((text, id): ContextItem => ({
    id,
    kind: 'tool_result',
    role: 'user',
    turn: id,
    messageIndex: id,
    text,
    tokens: 1,
    sourceRef: [`u${id}`],
  }));
  const itemFates = items.map((item, index): ItemFate => ({
    id: item.id,
    kind: item.kind,
    role: item.role,
    turn: item.turn,
    fate: fates[index] ?? 'preserved',
    reason: '',
    tokensBefore: 1,
    tokensAfter: 1,
  }));
  const afterItems: ContextItem[] = [];
  items.forEach((item, index) => {
    if (index === summaryAt)
      afterItems.push({ ...item, id: -1, kind: 'summary', text: `summary\n${texts.slice(0, 3).join('\n')}`, sourceRef: undefined } as ContextItem);
    const fate = itemFates[index]?.fate;
    if (fate === 'compacted') afterItems.push({ ...item, text: `[stub]\n${item.text.split('\n').slice(0, 2).join('\n')}` });
    else if (fate === 'preserved') afterItems.push(item);
  });
  const result = { status: 'compacted', items: itemFates, after: { items: afterItems } } as unknown as CompactionResult;
  return { context: { items }, result };
}

describe('diffSlots (property)', () => {
  it('matches every line the after side did not get from the engine, whatever the fates and texts', () => {
    // Any text but our own header lines (which no transcript holds) and quoted lines.
    const line = fc.constantFrom('', 'x', '}', 'same line', '=== #1', 'a'.repeat(1_500));
    const text = fc.array(line, { minLength: 0, maxLength: 8 }).map((lines) => lines.join('\n'));
    const fate = fc.constantFrom<ItemFate['fate']>('preserved', 'compacted', 'dropped');
    fc.assert(
      fc.property(fc.array(fc.tuple(text, fate), { minLength: 1, maxLength: 12 }), fc.nat(), (cases, at) => {
        const fates = cases.map(([, itemFate]) => itemFate);
        // The summary stands before a survivor (or at the end), as the engine puts it.
        const survivorsAt = fates.flatMap((itemFate, index) => (itemFate === 'dropped' ? [] : [index]));
        const summaryAt = survivorsAt.length === 0 ? null : (survivorsAt[at % survivorsAt.length] ?? null);
        const { context, result } = synthetic(
          cases.map(([itemText]) => itemText),
          fates,
          summaryAt,
        );
        const slots = diffSlots(context.items, result.items, afterTexts(result) ?? assert.fail('aligned'));
        assert.ok(slots);
        const { before, after } = diffSides(slots);
        const changes = diffLines(before, after);
        const added = changes.filter((change) => change.added).reduce((sum, change) => sum + (change.count ?? 0), 0);
        const quotedLines = after.split('\n').filter((entry) => entry.startsWith('>')).length;
        // Only what the engine wrote is new: every other line of the after side is matched.
        assert.equal(added, quotedLines);
        for (const [index, change] of changes.entries())
          assert.ok(!(change.removed && changes[index + 1]?.added) && !(change.added && changes[index + 1]?.removed), 'no replaced block');
        // Kept items read the same on both sides.
        for (const item of context.items.filter((entry) => fates[entry.id] === 'preserved')) {
          const block = `${itemHeader(item)}\n${wrapLongLines(item.text)}\n\n`;
          assert.ok(before.includes(block) && after.includes(block));
        }
      }),
      { numRuns: 300 },
    );
  });
});
