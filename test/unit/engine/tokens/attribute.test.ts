// Per-item tokens from per-call usage: the parts add up to what each call measured, at every call,
// the head never exceeds the first prompt, hidden reasoning weighs what its response left over, and
// a prompt that shrank is taken back from earlier items and said so.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { attribute, shareOut, type AttributionItem, type MeasuredCall } from '../../../../src/engine/tokens/attribute';
import { tokensFor } from '../../../../src/engine/tokens/image';

const item = (
  messageIndex: number,
  role: AttributionItem['role'],
  kind: AttributionItem['kind'],
  estimate: number,
  extra: Partial<AttributionItem> = {},
): AttributionItem => ({ messageIndex, role, kind, estimate, ...extra });
const sum = (values: readonly number[]): number => values.reduce((total, value) => total + value, 0);

describe('attribute', () => {
  it('gives each response its output, each step what the prompt grew by, the head what the first prompt holds beyond its messages', () => {
    const items = [
      item(-1, 'system', 'system', 0, { unrecordedHead: true }),
      item(0, 'user', 'user', 10),
      item(1, 'assistant', 'thinking', 0, { hidden: true }),
      item(1, 'assistant', 'assistant', 20),
      item(1, 'assistant', 'tool_use', 30),
      item(2, 'user', 'tool_result', 400),
      item(3, 'assistant', 'assistant', 50),
      item(4, 'user', 'user', 8),
    ];
    const calls: MeasuredCall[] = [
      { from: 1, to: 1, promptTokens: 15_010, outputTokens: 346 },
      { from: 3, to: 3, promptTokens: 15_810, outputTokens: 60 },
    ];
    const result = attribute(items, calls);
    assert.equal(result.tokens[0], 15_000, 'head = first prompt − its message');
    assert.equal(result.tokens[1], 10);
    // Hidden thinking: the output beyond the visible blocks' estimate.
    assert.equal(result.tokens[2], 346 - 50);
    assert.equal(sum(result.tokens.slice(2, 5)), 346);
    assert.equal(result.tokens[5], 15_810 - 15_010 - 346, 'the tool result is the whole step');
    assert.equal(result.basis[5], 'measured');
    assert.equal(result.tokens[6], 60);
    assert.equal(result.basis[7], 'estimated', 'nothing measured the last prompt yet');
    assert.equal(result.measuredTokens, 15_870);
  });

  it('takes a shrinking prompt back from earlier thinking and notes it, the step staying a measured share', () => {
    const items = [
      item(0, 'user', 'user', 10),
      item(1, 'assistant', 'thinking', 300),
      item(1, 'assistant', 'assistant', 20),
      item(2, 'user', 'user', 12),
      item(3, 'assistant', 'assistant', 5),
    ];
    // The API dropped the earlier turn's thinking when the new prompt came: the prompt grew by less than the prompt itself.
    const calls: MeasuredCall[] = [
      { from: 1, to: 1, promptTokens: 1_000, outputTokens: 320 },
      { from: 3, to: 3, promptTokens: 1_030, outputTokens: 5 },
    ];
    const result = attribute(items, calls);
    assert.equal(sum(result.tokens.slice(0, 4)), 1_030);
    assert.ok((result.apiDropped[1] ?? 0) > 0 && (result.tokens[1] ?? 0) < 300);
    assert.equal(result.basis[3], 'split');
  });

  it('takes a prompt shrinking below what its messages hold back from the head last (tools taken away mid-session)', () => {
    // Found by the property below: every message estimated empty, the second prompt smaller than the first.
    const items: AttributionItem[] = [
      { messageIndex: -1, role: 'system', kind: 'system', estimate: 0, unrecordedHead: true },
      ...[0, 1, 2, 3].map((index): AttributionItem => ({
        messageIndex: index,
        role: index % 2 === 0 ? 'user' : 'assistant',
        kind: index % 2 === 0 ? 'user' : 'assistant',
        estimate: 0,
      })),
    ];
    const result = attribute(items, [
      { from: 1, to: 1, promptTokens: 2, outputTokens: 0 },
      { from: 3, to: 3, promptTokens: 1, outputTokens: 0 },
    ]);
    assert.equal(
      result.tokens.reduce((sum, count) => sum + count, 0),
      1,
    );
    assert.deepEqual([result.tokens[0], result.apiDropped[0]], [1, 1]);
  });

  it('merges a response continued in a second call and ignores calls without a prompt', () => {
    const items = [item(0, 'user', 'user', 10), item(1, 'assistant', 'assistant', 100)];
    const calls: MeasuredCall[] = [
      { from: 1, to: 1, promptTokens: 0, outputTokens: 0 },
      { from: 1, to: 1, promptTokens: 500, outputTokens: 40 },
      { from: 1, to: 1, promptTokens: 540, outputTokens: 60 },
    ];
    const result = attribute(items, calls);
    assert.equal(result.tokens[1], 100, 'one response: what both calls added');
    assert.equal(result.calls.length, 1);
  });

  it('without usable calls: estimates, or shares an exact total out', () => {
    const items = [item(0, 'user', 'user', 10), item(1, 'assistant', 'assistant', 30)];
    assert.deepEqual(attribute(items, []).tokens, [10, 30]);
    assert.deepEqual(attribute(items, [], 80).tokens, [20, 60]);
  });
});

/** A random conversation: alternating user steps and responses, with their calls. */
const conversation = fc
  .record({
    head: fc.boolean(),
    turns: fc.array(
      fc.record({
        step: fc.array(
          fc.record({ kind: fc.constantFrom('user', 'tool_result', 'reminder') as fc.Arbitrary<AttributionItem['kind']>, estimate: fc.nat(5_000) }),
          { minLength: 1, maxLength: 4 },
        ),
        response: fc.array(
          fc.record({
            kind: fc.constantFrom('assistant', 'tool_use', 'thinking') as fc.Arbitrary<AttributionItem['kind']>,
            estimate: fc.nat(2_000),
            hidden: fc.boolean(),
          }),
          { minLength: 1, maxLength: 4 },
        ),
        measured: fc.boolean(),
        output: fc.nat(3_000),
        // What the prompt grew by beyond the step's estimate (negative: the API dropped something).
        drift: fc.integer({ min: -2_000, max: 5_000 }),
      }),
      { minLength: 1, maxLength: 12 },
    ),
    firstPrompt: fc.integer({ min: 1, max: 60_000 }),
  })
  .map(({ head, turns, firstPrompt }) => {
    const items: AttributionItem[] = head ? [item(-1, 'system', 'system', 0, { unrecordedHead: true })] : [];
    const calls: MeasuredCall[] = [];
    let messageIndex = 0;
    let prompt = firstPrompt;
    turns.forEach((turn, index) => {
      for (const part of turn.step) items.push(item(messageIndex, 'user', part.kind, part.estimate));
      messageIndex += 1;
      for (const part of turn.response)
        items.push(
          item(
            messageIndex,
            'assistant',
            part.kind,
            part.kind === 'thinking' && part.hidden ? 0 : part.estimate,
            part.kind === 'thinking' && part.hidden ? { hidden: true } : {},
          ),
        );
      if (index > 0) prompt = Math.max(1, prompt + sum(turn.step.map((part) => part.estimate)) + turn.drift);
      if (turn.measured || index === 0) {
        calls.push({ from: messageIndex, to: messageIndex, promptTokens: prompt, outputTokens: turn.output });
        prompt += turn.output;
      }
      messageIndex += 1;
    });
    return { items, calls };
  });

describe('attribute: properties', () => {
  it('at every call, the items before its response add up to its prompt, and with the response to prompt + output', () => {
    fc.assert(
      fc.property(conversation, ({ items, calls }) => {
        calls.forEach((call, k) => {
          const seen = items.filter((candidate) => candidate.messageIndex <= call.to);
          const result = attribute(seen, calls.slice(0, k + 1));
          const before = sum(result.tokens.filter((_, index) => (seen[index] as AttributionItem).messageIndex < call.from));
          assert.equal(before, call.promptTokens, `call ${k}`);
          assert.equal(sum(result.tokens), call.promptTokens + call.outputTokens, `call ${k} with its response`);
        });
      }),
      { numRuns: 300 },
    );
  });

  it('the head never exceeds the first prompt; every count is a non-negative integer; measured plus estimated is the total', () => {
    fc.assert(
      fc.property(conversation, ({ items, calls }) => {
        const result = attribute(items, calls);
        const head = items.findIndex((candidate) => candidate.unrecordedHead);
        if (head >= 0) assert.ok((result.tokens[head] ?? 0) <= (calls[0]?.promptTokens ?? 0));
        for (const tokens of result.tokens) assert.ok(Number.isInteger(tokens) && tokens >= 0);
        const estimated = sum(result.tokens.filter((_, index) => result.basis[index] === 'estimated'));
        assert.equal(sum(result.tokens), result.measuredTokens + estimated);
      }),
      { numRuns: 300 },
    );
  });

  it('shareOut sums exactly to its total', () => {
    fc.assert(
      fc.property(fc.array(fc.nat(10_000), { minLength: 1, maxLength: 20 }), fc.nat(1_000_000), (weights, total) =>
        assert.equal(sum(shareOut(weights, total)), total),
      ),
    );
  });
});

describe('image tokens', () => {
  it('sizes an image as its pixels after the provider scales it, not as placeholder text', () => {
    assert.equal(tokensFor(1000, 750), 1000);
    // A 4K screenshot is scaled to fit 1,568 px and ~1.15 megapixels first.
    assert.ok(tokensFor(3840, 2160) <= 1_540 && tokensFor(3840, 2160) > 1_400);
  });
});
