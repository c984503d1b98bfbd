import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { FileSystemArchive } from '../../../src/archive/fileArchive';
import { MemoryArchive } from '../../../src/engine/archive';
import { compact, EDITED_SUMMARIZER } from '../../../src/engine/compact';
import { plan } from '../../../src/engine/plan';
import type { CompactionResult } from '../../../src/engine/result';
import type { Summarizer } from '../../../src/engine/summarizers/types';
import { markdownSummaryBuilder, type SummarySections } from '../../../src/engine/summarizers/template';
import { charEstimateTokenizer } from '../../../src/engine/tokens/tokenizer';
import { assistant, big, build, call, read, results, user } from './support/build';
import { tempDir } from '../../support/tempDir';

const tokenizer = charEstimateTokenizer;
const conversation = [
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
];
const context = () => build(conversation, { windowTokens: 12_000 });

/** A model's summary of acceptable shape that names none of the span's facts. */
const MODEL_SUMMARY =
  '## Task and intent\n- Refactor the module the user pointed at, keeping its behaviour the same while the structure changes.\n## Remaining work\n- Finish the remaining steps of the refactoring and run the checks again afterwards.';

describe('compact', () => {
  it('climbs the ladder to the target and reports every item', async () => {
    const result = await compact(context(), {}, { tokenizer, archive: new MemoryArchive() });
    assert.equal(result.status, 'compacted');
    assert.ok(result.metrics.tokensAfter <= result.metrics.targetTokens, `${result.metrics.tokensAfter} > ${result.metrics.targetTokens}`);
    assert.equal(result.items.length, context().items.length);
    assert.ok(result.items.every((item) => item.reason.length > 0));
    assert.ok(result.metrics.perTier.supersede.items >= 1);
    assert.ok(result.metrics.staleResources.includes('Read:/src/a.ts'));
    assert.equal(result.metrics.failedOpen, false);
    assert.ok(result.metrics.compressionRatio > 1);
    assert.ok(result.verification?.ok, JSON.stringify(result.verification));
    assert.match(result.diff, /^--- context \(before\)\n\+\+\+ context \(after\)\n@@ /);
  });

  it('emits an Anthropic conversation with tool pairs intact', async () => {
    const result = await compact(context(), { trigger: 'manual' }, { tokenizer, archive: new MemoryArchive() });
    const uses = new Set<string>();
    const answered = new Set<string>();
    result.conversation.messages.forEach((message, index) => {
      const previous = result.conversation.messages[index - 1];
      for (const block of message.content) {
        if (block.type === 'tool_use') uses.add(String(block.id));
        if (block.type === 'tool_result') {
          answered.add(String(block.tool_use_id));
          assert.ok(
            previous?.content.some((prior) => prior.type === 'tool_use' && prior.id === block.tool_use_id),
            'result follows its call',
          );
        }
      }
      if (previous) assert.notEqual(previous.role, message.role, 'roles alternate');
    });
    assert.deepEqual([...uses].sort(), [...answered].sort());
    assert.equal(result.conversation.system[0]?.text, 'You are a coding agent.');
  });

  it('summarises the aged span in manual mode, archives first and points to the archive', async () => {
    const folder = tempDir('engine-archive-');
    const result = await compact(context(), { trigger: 'manual', focus: 'parser' }, { tokenizer, archive: new FileSystemArchive(folder) });
    assert.ok(result.summary, 'a summary was written');
    assert.equal(result.summary?.summarizer, 'heuristic');
    assert.match(result.summary?.text ?? '', /<context-summary items="\d+" by="heuristic" archive="[\w-]+">/);
    assert.ok(result.archive);
    const files = readdirSync(folder);
    assert.deepEqual(files, [`${result.archive?.id}.json`]);
    assert.equal(JSON.parse(readFileSync(join(folder, files[0] ?? ''), 'utf8')).context.items.length, context().items.length);
    const dropped = result.items.filter((item) => item.fate === 'dropped');
    assert.ok(dropped.length > 0 && dropped.every((item) => item.reason.startsWith('summarised into the summary (archived)')));
    assert.ok(result.items.find((item) => item.protection === 'original-ask')?.fate === 'preserved');
    assert.ok(result.after.items.some((item) => item.kind === 'summary'));
  });

  it('does not drop anything without an archive (persist before shrink)', async () => {
    const result = await compact(context(), { trigger: 'manual' }, { tokenizer });
    assert.ok(!result.items.some((item) => item.fate === 'dropped'));
    assert.match(result.tiers.find((tier) => tier.tier === 'summarize')?.note ?? '', /needs an archive/);
  });

  it('uses the configured summarizer and falls back with a reason', async () => {
    const llm: Summarizer = { name: 'llm', summarize: async () => ({ ok: true, value: MODEL_SUMMARY }) };
    const good = await compact(context(), { trigger: 'manual' }, { tokenizer, archive: new MemoryArchive(), summarizer: llm });
    assert.equal(good.summary?.summarizer, 'llm');
    // Issue 13: a reply of a few words is not a summary; it is rejected, visibly.
    const terse: Summarizer = { name: 'llm', summarize: async () => ({ ok: true, value: 'Summary done.' }) };
    const rejected = await compact(context(), { trigger: 'manual' }, { tokenizer, archive: new MemoryArchive(), summarizer: terse });
    assert.deepEqual([rejected.summary?.summarizer, rejected.summary?.fellBack], ['heuristic', true]);
    assert.match(rejected.summary?.error ?? '', /^llm summary rejected: malformed \(2 words, no sections or bullets\); the heuristic summary is used instead$/);
    // The model dropped the constraint: it is re-injected verbatim and reported.
    const failing: Summarizer = { name: 'llm', summarize: async () => ({ ok: false, error: '529 overloaded' }) };
    const fallback = await compact(context(), { trigger: 'manual' }, { tokenizer, archive: new MemoryArchive(), summarizer: failing });
    assert.deepEqual([fallback.summary?.summarizer, fallback.summary?.fellBack, fallback.summary?.error], ['heuristic', true, '529 overloaded']);
  });

  it('repairs a model summary that lost a constraint from the extracted facts, and says so', async () => {
    const long = `Never modify config/prod.yaml.\n${'pasted log line\n'.repeat(1_000)}`;
    const ctx = build([user('Start.'), user(long), ...read('r', '/x', big('x', 9_000)), assistant('ok'), user('next'), assistant('done')], {
      windowTokens: 20_000,
    });
    const llm: Summarizer = { name: 'llm', summarize: async () => ({ ok: true, value: MODEL_SUMMARY }) };
    const result = await compact(ctx, { trigger: 'manual', preserve: { recentTurns: 1 } }, { tokenizer, archive: new MemoryArchive(), summarizer: llm });
    assert.equal(result.summary?.summarizer, 'llm');
    assert.deepEqual(result.summary?.repaired, ['Constraints: 1']);
    assert.match(result.summary?.text ?? '', /Carried over by Context Lens[^\n]*\n\n## Constraints\n- Never modify config\/prod\.yaml\./);
    assert.deepEqual(result.verification?.reinjected, []);
  });

  it('re-injects a lost constraint and reports it', async () => {
    const long = `Never modify config/prod.yaml.\n${'pasted log line\n'.repeat(1_000)}`;
    const ctx = build([user('Start.'), user(long), ...read('r', '/x', big('x', 9_000)), assistant('ok'), user('next'), assistant('done')], {
      windowTokens: 20_000,
    });
    // A summary builder that leaves constraints out: only the re-injected block can bring them back.
    const summaryBuilder = (sections: SummarySections): string =>
      markdownSummaryBuilder({ 'Remaining work': sections['Remaining work']?.length ? sections['Remaining work'] : ['(this builder leaves the rest out)'] });
    const result = await compact(ctx, { trigger: 'manual', preserve: { recentTurns: 1 } }, { tokenizer, archive: new MemoryArchive(), summaryBuilder });
    assert.deepEqual(result.verification?.reinjected, ['Never modify config/prod.yaml.']);
    assert.equal(result.verification?.ok, false);
    assert.ok(result.verification?.constraints.every((constraint) => constraint.present));
    assert.match(result.summary?.text ?? '', /<\/context-summary>\n\nPinned constraints and open loops[^\n]*\n- Never modify config\/prod\.yaml\.$/);
  });

  it('is a no-op under the target and skips low savings', async () => {
    const small = build([user('hi'), assistant('hello')], { windowTokens: 20_000 });
    assert.equal((await compact(small, {}, { tokenizer })).status, 'noop');
    const skipped = await compact(context(), { minSavingsPercent: 99 }, { tokenizer, archive: new MemoryArchive() });
    assert.equal(skipped.status, 'skipped-low-savings');
    assert.equal(skipped.metrics.skippedLowSavings, true);
    assert.equal(skipped.after, skipped.after);
  });

  it('fails open on any error and still runs the after hook', async () => {
    const throwingTokenizer = {
      name: 'broken',
      count: () => {
        throw new Error('tokenizer exploded');
      },
    };
    const seen: string[] = [];
    const original = context();
    const result = await compact(original, {}, { tokenizer: throwingTokenizer, hooks: { onAfterCompaction: (r) => void seen.push(r.status) } });
    assert.equal(result.status, 'failed-open');
    assert.equal(result.error, 'tokenizer exploded');
    assert.equal(result.after, original);
    assert.equal(result.metrics.failedOpen, true);
    assert.deepEqual(seen, ['failed-open']);
    const hookFailure = await compact(
      original,
      {},
      {
        tokenizer,
        hooks: {
          onBeforeCompaction: () => {
            throw new Error('hook');
          },
        },
      },
    );
    assert.equal(hookFailure.status, 'failed-open');
    const archiveFailure = await compact(
      original,
      { trigger: 'manual' },
      { tokenizer, archive: { put: () => Promise.reject(new Error('disk full')), get: async () => undefined } },
    );
    assert.deepEqual([archiveFailure.status, archiveFailure.error], ['failed-open', 'disk full']);
  });

  it('warns when the hard limit cannot be met', async () => {
    const result = await compact(context(), { hardLimitTokens: 100 }, { tokenizer, archive: new MemoryArchive() });
    assert.match(result.overflow?.message ?? '', /above the hard limit of 100/);
  });
});

describe('stopping at the target', () => {
  const deps = () => ({ tokenizer, archive: new MemoryArchive() });
  const tiersOf = (result: { tiers: { tier: string }[] }) => result.tiers.map((tier) => tier.tier);

  it('stops a manual run with the caller’s target after the gentlest tier that meets it', async () => {
    const stopped = await compact(context(), { trigger: 'manual', explicitTarget: true }, deps());
    assert.deepEqual(tiersOf(stopped), ['supersede']);
    assert.equal(stopped.metrics.targetMet, true);
    assert.equal(stopped.summary, undefined);
    // Without a target of its own a manual run goes as far as the ladder goes, like /compact.
    const full = await compact(context(), { trigger: 'manual' }, deps());
    assert.deepEqual(tiersOf(full), ['supersede', 'age-clear', 'dedupe', 'truncate', 'summarize']);
    assert.ok(full.metrics.tokensAfter < stopped.metrics.tokensAfter);
  });

  it('gives different results for a 99 % and a 10 % target', async () => {
    const loose = await compact(context(), { trigger: 'manual', explicitTarget: true, targetPercent: 99 }, deps());
    assert.deepEqual([loose.status, loose.message], ['noop', 'already at or below the target']);
    const tight = await compact(context(), { trigger: 'manual', explicitTarget: true, targetPercent: 10 }, deps());
    assert.equal(tight.status, 'compacted');
    assert.ok(tight.summary);
  });

  it('leaves automatic runs as they were: they always stop at the target', async () => {
    const plain = await compact(context(), {}, deps());
    const flagged = await compact(context(), { explicitTarget: true }, deps());
    assert.deepEqual(tiersOf(plain), ['supersede']);
    assert.deepEqual(flagged.items, plain.items);
  });
});

describe('metrics', () => {
  const tierSum = (result: CompactionResult): number => Object.values(result.metrics.perTier).reduce((sum, tier) => sum + tier.tokensSaved, 0);

  it('credits a stub tier 4 drops to tier 1 for what the stub saved, and to tier 4 for the rest', async () => {
    const result = await compact(context(), { trigger: 'manual' }, { tokenizer, archive: new MemoryArchive() });
    const stale = result.items.find((item) => item.prunedBy === 'supersede');
    assert.deepEqual([stale?.fate, stale?.tier], ['dropped', 'summarize']);
    assert.deepEqual(result.metrics.staleResources, ['Read:/src/a.ts']);
    assert.equal(result.metrics.toolResultsPruned, result.items.filter((item) => item.prunedBy).length);
    assert.equal(tierSum(result), result.metrics.savedTokens);
  });

  it('counts the summary really inserted (repaired) and the re-injected pins, not the plan’s preview', async () => {
    const llm: Summarizer = { name: 'llm', summarize: async () => ({ ok: true, value: MODEL_SUMMARY }) };
    const result = await compact(
      context(),
      { trigger: 'manual', preserve: { pinned: ['Never force-push.'] } },
      { tokenizer, archive: new MemoryArchive(), summarizer: llm },
    );
    const { summary, metrics } = result;
    assert.ok(summary?.repaired?.includes('Constraints: 2'), 'the pins are carried by the repaired summary');
    if (!summary) return;
    assert.equal(metrics.perTier.summarize.tokensSaved, summary.summarizedTokens - (summary.tokens - metrics.reinjectedTokens));
    assert.equal(tierSum(result) - metrics.reinjectedTokens, metrics.savedTokens);
    assert.notEqual(metrics.perTier.summarize.tokensSaved, plan(context(), { trigger: 'manual' }, { tokenizer }).metrics.perTier.summarize.tokensSaved);
  });
});

describe('plan', () => {
  it('matches compact’s fates with the heuristic summarizer', async () => {
    const preview = plan(context(), { trigger: 'manual' }, { tokenizer });
    const applied = await compact(context(), { trigger: 'manual' }, { tokenizer, archive: new MemoryArchive() });
    assert.deepEqual(
      preview.items.map((item) => item.fate),
      applied.items.map((item) => item.fate),
    );
    assert.ok(preview.summaryPreview?.includes('<context-summary'));
  });

  it('exposes epistemic marker offsets per item', () => {
    const ctx = build([user('go'), assistant('Hmm, wait. Actually that is wrong.'), user('ok'), assistant('fine'), user('more'), assistant('yes')]);
    const item = plan(ctx, { preserve: { recentTurns: 1, recentPercent: 0 } }, { tokenizer }).items.find((entry) => entry.markers);
    assert.deepEqual(
      item?.markers?.map((marker) => marker.phrase),
      ['hmm', 'wait', 'actually'],
    );
    assert.equal(item?.reason, '3 second thoughts: hmm · wait · actually');
  });
});

describe('a summary written by the person', () => {
  it("is used instead of the summarizer's (which is not called), framed, masked and verified", async () => {
    let called = false;
    const llm: Summarizer = { name: 'llm', summarize: async () => ((called = true), { ok: true, value: MODEL_SUMMARY }) };
    const mine = '## Done\n- The parser streams its input. Never modify config/prod.yaml. token=sk-ant-api03-abcdefghijklmnopqrstuv';
    const result = await compact(context(), { trigger: 'manual', summaryOverride: mine }, { tokenizer, archive: new MemoryArchive(), summarizer: llm });
    assert.equal(called, false);
    assert.equal(result.summary?.summarizer, EDITED_SUMMARIZER);
    assert.equal(result.summary?.fellBack, false);
    assert.ok(result.summary?.text.includes('<context-summary'), 'framed like any summary');
    assert.ok(result.summary?.text.includes('The parser streams its input.'));
    assert.ok(!result.summary?.text.includes('abcdefghijklmnopqrstuv'), 'a pasted key is masked');
    assert.ok(result.verification, 'verified');
    assert.ok(
      result.after.items.some((item) => item.text.includes('The parser streams its input.')),
      'and written',
    );
  });

  it('is verified like a generated one: a constraint it leaves out is reported and re-injected', async () => {
    const result = await compact(
      context(),
      { trigger: 'manual', summaryOverride: 'Parser refactor under way.', preserve: { pinned: ['Never force-push.'] } },
      { tokenizer, archive: new MemoryArchive() },
    );
    assert.equal(result.summary?.summarizer, EDITED_SUMMARIZER);
    assert.deepEqual(result.verification?.reinjected, ['Never force-push.'], 'the lost rule comes back');
    assert.ok(result.conversation.messages.length > 0);
  });

  it('is ignored when blank', async () => {
    const result = await compact(context(), { trigger: 'manual', summaryOverride: '  ' }, { tokenizer, archive: new MemoryArchive() });
    assert.equal(result.summary?.summarizer, 'heuristic');
  });
});
