// Issue 13 (S23, S24): a TF-IDF proxy for surprisal ranks messages for verbatim keeping.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { plan } from '../../../../src/engine/plan';
import { importanceOf, keepThreshold } from '../../../../src/engine/policy/importance';
import { charEstimateTokenizer as tokenizer } from '../../../../src/engine/tokens/tokenizer';
import { assistant, big, build, read, user } from '../support/build';

const routine = (index: number): string => `Reading the next file now, part ${index} of the module, nothing new here.`;

describe('importance', () => {
  it('scores a message of rare words above routine ones, naming the words', () => {
    const context = build([
      user('go'),
      ...[1, 2, 3, 4].map((index) => assistant(routine(index))),
      assistant('The gateway rejects idempotency keys longer than 64 bytes; truncation corrupts reconciliation.'),
    ]);
    const scores = importanceOf(context.items);
    const rare = context.items.find((item) => item.text.startsWith('The gateway'));
    const ordinary = context.items.find((item) => item.text.startsWith('Reading the next file now, part 2'));
    assert.equal(scores.get(rare?.id ?? -1)?.score, 1);
    assert.ok((scores.get(ordinary?.id ?? -1)?.score ?? 1) < 0.6);
    assert.ok(scores.get(rare?.id ?? -1)?.terms.length === 3);
  });

  it('keeps the most important messages of a summarised span verbatim while there is room, saying why; pressure raises the bar', () => {
    assert.equal(keepThreshold(1_000, 800), 0.6);
    assert.equal(keepThreshold(3_000, 800), 0.85);
    const context = build(
      [
        user('go'),
        assistant('The gateway rejects idempotency keys longer than 64 bytes; truncation corrupts reconciliation.'),
        ...[1, 2, 3].flatMap((index) => [assistant(routine(index)), ...read(`r${index}`, `/w/f${index}.ts`, big(`f${index}`, 3_000))]),
        ...read('r9', '/w/f9.ts', big('f9', 3_000)),
        user('next'),
        assistant('ok'),
      ],
      { windowTokens: 10_000 },
    );
    const planned = plan(
      context,
      {
        trigger: 'manual',
        explicitTarget: true,
        targetTokens: 2_300,
        summary: { maxTokens: 300 },
        preserve: { recentTurns: 1, recentPercent: 0 },
        ageClear: { enabled: false },
        supersede: { enabled: false },
        truncate: { enabled: false },
      },
      { tokenizer },
    );
    const rare = planned.items.find((item) => item.id === context.items.find((entry) => entry.text.startsWith('The gateway'))?.id);
    assert.equal(rare?.fate, 'preserved');
    assert.match(rare?.reason ?? '', /^kept verbatim: importance 1\.00 \(rare words: .+\), room left under the target$/);
    // Under pressure (more than twice the target) routine messages no longer clear the bar.
    const tight = plan(
      context,
      {
        trigger: 'manual',
        explicitTarget: true,
        targetTokens: 1_500,
        summary: { maxTokens: 300 },
        preserve: { recentTurns: 1, recentPercent: 0 },
        ageClear: { enabled: false },
        supersede: { enabled: false },
        truncate: { enabled: false },
      },
      { tokenizer },
    );
    const routineIds = context.items.filter((item) => item.text.startsWith('Reading the next file')).map((item) => item.id);
    assert.ok(
      routineIds.every((id) => /^summarised into the summary \(archived\) — importance 0\.\d\d/.test(tight.items[id]?.reason ?? '')),
      JSON.stringify(routineIds.map((id) => tight.items[id]?.reason)),
    );
  });
});
