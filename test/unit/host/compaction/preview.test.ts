import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { charEstimateTokenizer, compact, MemoryArchive, type Summarizer } from '../../../../src/engine';
import { afterTexts } from '../../../../src/engine';
import {
  DROPPED_TEXT,
  diffBlocksOf,
  diffDocuments,
  previewItemDetail,
  previewOf,
  readableSummary,
  summaryBodyOf,
  tiersOf,
  VSCODE_LINEAR_DIFF_LINES,
} from '../../../../src/host/compaction/preview';
import { PREVIEW_WARNING_MAX, previewSchema } from '../../../../src/protocol/messages';
import { itemDetailOf, DETAIL_MAX_CHARS } from '../../../../src/host/context/itemDetail';
import { assistant, big, build, call, read, results, user } from '../../engine/support/build';

const SECRET = 'password=hunter2';
const context = () =>
  build(
    [
      user('Fix the retry.'),
      ...read('t1', '/w/retry.ts', big(`v1 ${SECRET}`, 6_000)),
      assistant('Looked at it.'),
      user('go on'),
      ...read('t2', '/w/retry.ts', big('v2', 6_000)),
      assistant('Wait, actually the timing is off.'),
      user('and now?'),
      assistant('Done.'),
      user('thanks'),
    ],
    { windowTokens: 10_000, sourceRefs: Array.from({ length: 12 }, (_, index) => [`uuid-${index}`]) },
  );

describe('compaction preview', () => {
  it('shows one redacted diff block per changed item and the engine-written texts in the diff documents', async () => {
    const ctx = context();
    const result = await compact(
      ctx,
      { trigger: 'manual', focus: 'keep the retry decision', preserve: { recentTurns: 1, recentPercent: 0 } },
      { archive: new MemoryArchive(), tokenizer: charEstimateTokenizer },
    );
    assert.equal(result.status, 'compacted');
    const blocks = diffBlocksOf(ctx, result);
    const changed = result.items.filter((fate) => fate.fate !== 'preserved');
    assert.deepEqual(
      blocks.map((block) => block.id),
      changed.map((fate) => fate.id),
    );
    assert.ok(
      blocks.every((block) => !block.before.includes('hunter2') && !block.after.includes('hunter2')),
      'secrets are redacted',
    );
    for (const block of blocks.filter((entry) => entry.fate === 'dropped')) assert.ok(block.after.startsWith('(dropped'), block.after);
    if (changed.some((fate) => fate.fate === 'dropped' && fate.tier === 'summarize')) assert.ok(blocks.some((block) => block.after === DROPPED_TEXT));

    const texts = afterTexts(result);
    assert.ok(texts, 'the result lines up with its context');
    const { compacted, written } = texts;
    for (const [id, text] of compacted) assert.notEqual(text, ctx.items[id]?.text);
    const documents = diffDocuments(ctx, result);
    assert.ok(documents);
    for (const block of blocks) assert.ok(documents.before.includes(`=== #${block.id} ${block.label} ===\n`), `#${block.id} under the label the webview shows`);
    for (const text of written) assert.ok(documents.after.includes(`> ${text.split('\n')[0] ?? ''}`), 'what the engine wrote, quoted');
    // Short documents get blank lines up to VS Code's fast diff.
    assert.equal(documents.before.split('\n').length + documents.after.split('\n').length >= VSCODE_LINEAR_DIFF_LINES, true);

    const preview = previewOf({ id: 'p1', focus: 'keep the retry decision', summarizer: 'heuristic', context: ctx, result });
    assert.equal(preview.applied, null);
    assert.equal(preview.regions.length, ctx.items.length);
    assert.equal(preview.verification?.constraintsTotal, result.verification?.constraints.length);
    assert.equal(preview.tiers.length, result.tiers.length);
    assert.deepEqual(preview.choices, { keep: [], drop: [], pins: [] });
    assert.equal(preview.stale, null);
  });

  it('caps diff blocks for the webview', async () => {
    const ctx = context();
    const result = await compact(
      ctx,
      { trigger: 'manual', preserve: { recentTurns: 1, recentPercent: 0 } },
      { archive: new MemoryArchive(), tokenizer: charEstimateTokenizer },
    );
    const blocks = diffBlocksOf(ctx, result, 100);
    assert.ok(blocks.length > 0);
    assert.ok(blocks.every((block) => block.before.length < 200));
    assert.ok(blocks.some((block) => /more characters\)$/.test(block.before)));
  });

  it('answers item detail with capped text, markers, fate and reason', () => {
    const ctx = context();
    const index = ctx.items.findIndex((item) => item.text.startsWith('Wait'));
    const detail = itemDetailOf(ctx, index, undefined);
    assert.ok(detail);
    assert.deepEqual(
      detail.markers.map((marker) => detail.text.slice(marker.start, marker.end).toLowerCase()),
      detail.markers.map((marker) => marker.phrase),
    );
    assert.ok(detail.markers.length >= 2);
    assert.equal(detail.fate, null);
    assert.equal(itemDetailOf(ctx, 999, undefined), null);
    const huge = build([user('x'.repeat(DETAIL_MAX_CHARS + 10))]);
    const long = itemDetailOf(huge, huge.items.length - 1, {
      id: 0,
      kind: 'user',
      role: 'user',
      turn: 1,
      fate: 'compacted',
      reason: 'why',
      tokensBefore: 1,
      tokensAfter: 1,
    });
    assert.equal(long?.truncated, true);
    assert.equal(long?.text.length, DETAIL_MAX_CHARS);
    assert.equal(long?.reason, 'why');
  });

  it('says so when the summarizer fell back: why (redacted, bounded), and that the heuristic summary was used', async () => {
    const ctx = context();
    const failing: Summarizer = {
      name: 'anthropic',
      summarize: () => Promise.resolve({ ok: false, error: `anthropic failed: 401 invalid x-api-key sk-ant-api03-abcdefghijklmnop ${'detail '.repeat(300)}` }),
    };
    const result = await compact(
      ctx,
      { trigger: 'manual', preserve: { recentTurns: 1, recentPercent: 0 } },
      { archive: new MemoryArchive(), tokenizer: charEstimateTokenizer, summarizer: failing },
    );
    assert.equal(result.summary?.fellBack, true);
    const preview = previewOf({ id: 'p1', focus: '', summarizer: 'anthropic', context: ctx, result });
    assert.ok(preview.summaryFallback);
    assert.match(preview.summaryFallback, /^anthropic failed: 401 invalid x-api-key \[REDACTED\]/);
    assert.match(preview.summaryFallback, /… — used the heuristic summary$/);
    assert.equal(preview.summaryFallback.length, PREVIEW_WARNING_MAX);
    assert.equal(preview.summarizer, 'heuristic');
    assert.equal(preview.overflow, null);
    assert.ok(previewSchema.safeParse(preview).success);
  });

  it('gives the summary readable (no frame sentence, no tags, the pinned block kept) beside the raw text, and the target for the headline', async () => {
    const ctx = context();
    const result = await compact(
      ctx,
      { trigger: 'manual', preserve: { recentTurns: 1, recentPercent: 0 } },
      { archive: new MemoryArchive(), tokenizer: charEstimateTokenizer },
    );
    const preview = previewOf({ id: 'p1', focus: '', summarizer: 'heuristic', context: ctx, result });
    assert.ok(preview.summary?.includes('<context-summary'));
    assert.ok(
      preview.summaryReadable && !preview.summaryReadable.includes('<context-summary') && !preview.summaryReadable.includes('Treat it as background reference'),
    );
    assert.equal(preview.targetTokens, result.metrics.targetTokens);
    assert.equal(preview.targetMet, result.metrics.targetMet);
    assert.equal(
      readableSummary('Preamble.\n<context-summary items="2">\n## Goal\n- x\n</context-summary>\n\n[pinned] never y'),
      '## Goal\n- x\n\n[pinned] never y',
    );
    assert.equal(readableSummary('no frame'), 'no frame');
    assert.equal(summaryBodyOf('Preamble.\n<context-summary items="2">\n## Goal\n- x\n</context-summary>\n\n[pinned] never y'), '## Goal\n- x');
    assert.equal(preview.summaryBody, summaryBodyOf(preview.summary ?? ''));
    assert.equal(preview.summaryEdited, false);
  });

  it('says by how much and why a target was missed, for the headline (issue 41, item 6), and nothing when it was met', async () => {
    const ctx = context();
    const deps = { archive: new MemoryArchive(), tokenizer: charEstimateTokenizer };
    const missed = await compact(ctx, { trigger: 'manual', explicitTarget: true, targetTokens: 5 }, deps);
    const preview = previewOf({ id: 'p1', focus: '', summarizer: 'heuristic', context: ctx, result: missed });
    assert.equal(preview.targetMet, false);
    assert.match(preview.targetMiss ?? '', /^target 5 missed by [\d,]+: .*cannot be removed/);
    assert.ok(missed.message.endsWith(preview.targetMiss ?? '?'), "the same words as the engine's message");
    assert.ok(previewSchema.safeParse(preview).success);
    const met = previewOf({
      id: 'p2',
      focus: '',
      summarizer: 'heuristic',
      context: ctx,
      result: await compact(ctx, { trigger: 'manual', explicitTarget: true, targetTokens: 9_000 }, deps),
    });
    assert.equal(met.targetMiss, null);
  });

  it("carries the engine's overflow warning, and no warnings when all went well", async () => {
    const ctx = context();
    const options = { trigger: 'manual' as const, preserve: { recentTurns: 1, recentPercent: 0 } };
    const deps = { archive: new MemoryArchive(), tokenizer: charEstimateTokenizer };
    const overflowing = await compact(ctx, { ...options, hardLimitTokens: 100 }, deps);
    const warned = previewOf({ id: 'p1', focus: '', summarizer: 'heuristic', context: ctx, result: overflowing });
    assert.equal(warned.overflow, overflowing.overflow?.message);
    assert.match(warned.overflow ?? '', /above the hard limit of 100/);

    const fine = previewOf({ id: 'p2', focus: '', summarizer: 'heuristic', context: ctx, result: await compact(ctx, options, deps) });
    assert.equal(fine.overflow, null);
    assert.equal(fine.summaryFallback, null);
  });

  it("answers item detail from the preview's own context and fates", async () => {
    const ctx = context();
    const result = await compact(
      ctx,
      { trigger: 'manual', preserve: { recentTurns: 1, recentPercent: 0 } },
      { archive: new MemoryArchive(), tokenizer: charEstimateTokenizer },
    );
    const dropped = result.items.find((fate) => fate.fate === 'dropped');
    assert.ok(dropped, 'the run drops something');
    const detail = previewItemDetail(ctx, result, dropped.id);
    assert.equal(detail?.fate, 'dropped');
    assert.equal(detail?.reason, dropped.reason);
    assert.equal(detail?.text, ctx.items[dropped.id]?.text);
    assert.equal(previewItemDetail(ctx, result, ctx.items.length), null);
  });

  it('counts each item under the tier of its final fate, as its row shows it, and the books still balance', async () => {
    // a.ts is read twice: the first read is stubbed as stale, then the whole span is summarised.
    const ctx = build(
      [
        user('Refactor the parser. Never modify config/prod.yaml.'),
        ...read('a1', '/src/a.ts', big('a v1', 8_000)),
        assistant('I decided to stream the input because memory was the bottleneck.'),
        ...read('a2', '/src/a.ts', big('a v2', 8_000)),
        assistant(call('t1', 'Bash', { command: 'npm test' })),
        results({ id: 't1', output: `${big('test log', 12_000)}\nError: 1 failing`, isError: true }),
        assistant('The failure is due to an off-by-one. Next I will fix it.'),
        ...read('b1', '/src/b.ts', big('b v1', 6_000)),
        user('Good. Continue with b.ts.'),
        ...read('b2', '/src/b.ts', big('b v2', 2_000)),
        assistant('Working on it.'),
      ],
      { windowTokens: 12_000 },
    );
    const result = await compact(ctx, { trigger: 'manual' }, { archive: new MemoryArchive(), tokenizer: charEstimateTokenizer });
    const stubbedThenSummarised = result.items.filter((fate) => fate.prunedBy === 'supersede' && fate.tier === 'summarize');
    assert.ok(stubbedThenSummarised.length > 0, 'the case of issue 23: stubbed first, then summarised');
    assert.ok((result.tiers.find((tier) => tier.tier === 'supersede')?.acted ?? 0) > 0, 'the engine credits the stub to tier 1');

    const tiers = tiersOf(result);
    const regions = previewOf({ id: 'p', focus: '', summarizer: 'heuristic', context: ctx, result }).regions;
    for (const tier of tiers) assert.equal(tier.items, regions.filter((region) => region.tier === tier.tier && region.fate !== 'preserved').length, tier.tier);
    assert.equal(tiers.find((tier) => tier.tier === 'supersede')?.items ?? 0, result.items.filter((fate) => fate.tier === 'supersede').length);
    assert.match(
      tiers.find((tier) => tier.tier === 'summarize')?.note ?? '',
      new RegExp(`${stubbedThenSummarised.length} of them first by "stale results stubbed`),
    );
    const saved = tiers.reduce((sum, tier) => sum + tier.tokensSaved, 0);
    assert.equal(saved - result.metrics.reinjectedTokens, result.metrics.savedTokens);
  });
});
