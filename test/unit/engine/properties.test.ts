// Properties over generated agent contexts: whatever the shape, compaction keeps tool pairs whole,
// keeps pinned items verbatim, never grows the context, settles (a second run does nothing useful)
// and fails open on injected errors.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { MemoryArchive } from '../../../src/engine/archive';
import { compact } from '../../../src/engine/compact';
import { contextFromMessages } from '../../../src/engine/fromMessages';
import type { Context } from '../../../src/engine/model';
import type { EngineOptionsInput } from '../../../src/engine/options';
import type { Summarizer } from '../../../src/engine/summarizers/types';
import { charEstimateTokenizer } from '../../../src/engine/tokens/tokenizer';
import { generateMessages } from './support/generate';

const tokenizer = charEstimateTokenizer;
const arbitraryCase = fc.record({
  seed: fc.integer({ min: 1, max: 1_000_000 }),
  chars: fc.integer({ min: 2_000, max: 120_000 }),
  windowTokens: fc.integer({ min: 4_000, max: 60_000 }),
  inFlight: fc.boolean(),
  manual: fc.boolean(),
  recentTurns: fc.integer({ min: 1, max: 4 }),
});

type Case = typeof arbitraryCase extends fc.Arbitrary<infer T> ? T : never;

function contextOf(testCase: Case): Context {
  return contextFromMessages({ ...generateMessages({ targetChars: testCase.chars, seed: testCase.seed, inFlight: testCase.inFlight }), windowTokens: testCase.windowTokens, tokenizer });
}

function optionsOf(testCase: Case): EngineOptionsInput {
  return { trigger: testCase.manual ? 'manual' : 'auto', preserve: { recentTurns: testCase.recentTurns } };
}

const settings = { numRuns: 40, seed: 42 };

describe('compaction properties', () => {
  it('never splits a tool pair and keeps in-flight calls', async () => {
    await fc.assert(
      fc.asyncProperty(arbitraryCase, async (testCase) => {
        const context = contextOf(testCase);
        const result = await compact(context, optionsOf(testCase), { tokenizer, archive: new MemoryArchive() });
        const uses = new Set<string>();
        const answered = new Set<string>();
        for (const message of result.conversation.messages) {
          for (const block of message.content) {
            if (block.type === 'tool_use') uses.add(String(block.id));
            if (block.type === 'tool_result') answered.add(String(block.tool_use_id));
          }
        }
        for (const id of answered) assert.ok(uses.has(id), `result ${id} without its call`);
        const inFlight = context.items.filter((item) => item.kind === 'tool_use' && !context.items.some((other) => other.kind === 'tool_result' && other.toolUseId === item.toolUseId));
        for (const item of inFlight) assert.ok(uses.has(item.toolUseId ?? ''), 'in-flight call kept');
        for (const id of uses) if (!inFlight.some((item) => item.toolUseId === id)) assert.ok(answered.has(id), `call ${id} without its result`);
      }),
      settings,
    );
  });

  it('keeps protected items verbatim and never grows the context', async () => {
    await fc.assert(
      fc.asyncProperty(arbitraryCase, async (testCase) => {
        const context = contextOf(testCase);
        const result = await compact(context, optionsOf(testCase), { tokenizer, archive: new MemoryArchive() });
        for (const item of result.items) {
          if (item.protection) assert.equal(item.fate, 'preserved', `#${item.id} ${item.protection}`);
        }
        const outputText = result.after.items.map((item) => item.text).join('\n');
        for (const item of context.items.filter((entry) => result.items[entry.id]?.protection === 'pinned')) assert.ok(outputText.includes(item.text));
        assert.ok(result.metrics.tokensAfter <= result.metrics.tokensBefore, `${result.metrics.tokensAfter} > ${result.metrics.tokensBefore}`);
        assert.ok(result.verification === undefined || result.verification.constraints.every((constraint) => constraint.present));
      }),
      settings,
    );
  });

  it('settles: compacting the output again is a no-op or a low-savings skip', async () => {
    await fc.assert(
      fc.asyncProperty(arbitraryCase, async (testCase) => {
        const options: EngineOptionsInput = { preserve: { recentTurns: testCase.recentTurns } };
        const first = await compact(contextOf(testCase), options, { tokenizer, archive: new MemoryArchive() });
        const second = await compact(first.after, options, { tokenizer, archive: new MemoryArchive() });
        assert.ok(['noop', 'skipped-low-savings'].includes(second.status) || !first.metrics.targetMet, `${first.status} → ${second.status}: ${second.message}`);
      }),
      settings,
    );
  });

  it('fails open on injected errors, returning the context untouched', async () => {
    const faults = fc.constantFrom('tokenizer', 'summarizer-throws', 'archive', 'formatter-once');
    await fc.assert(
      fc.asyncProperty(arbitraryCase, faults, async (testCase, fault) => {
        const context = contextOf(testCase);
        const throwingSummarizer: Summarizer = { name: 'bad', summarize: () => { throw new Error('injected'); } };
        let formatted = 0;
        const result = await compact(context, { ...optionsOf(testCase), trigger: 'manual' }, {
          archive: fault === 'archive' ? { put: () => Promise.reject(new Error('injected')), get: async () => undefined } : new MemoryArchive(),
          tokenizer: fault === 'tokenizer' ? { name: 'bad', count: () => { throw new Error('injected'); } } : tokenizer,
          ...(fault === 'summarizer-throws' ? { summarizer: throwingSummarizer } : {}),
          ...(fault === 'formatter-once' ? { formatter: () => { if (formatted++ === 0) throw new Error('injected'); return { system: [], tools: [], messages: [] }; } } : {}),
        });
        if (fault === 'summarizer-throws') {
          // A throwing summarizer is a summarizer failure, not an engine failure: heuristic fallback.
          assert.ok(result.status !== 'failed-open');
          if (result.summary) assert.equal(result.summary.fellBack, true);
          return;
        }
        if (result.status === 'noop') return;
        assert.equal(result.status, 'failed-open');
        assert.equal(result.error, 'injected');
        assert.equal(result.after, context);
        assert.ok(result.items.every((item) => item.fate === 'preserved'));
      }),
      settings,
    );
  });
});
