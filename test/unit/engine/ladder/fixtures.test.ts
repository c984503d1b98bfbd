// The ladder's tiers on transcripts recorded with the real Claude Code CLI (test/fixtures/claude-code),
// read the way the host reads them: readLiveContext → engineContextOf. Items are looked up by tool,
// path or text rather than by position, so a re-recording that shifts ids does not break the tests.
import assert from 'node:assert/strict';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import {
  compact,
  MemoryArchive,
  plan,
  type CompactionResult,
  type Context,
  type ContextItem,
  type EngineOptionsInput,
  type Summarizer,
} from '../../../../src/engine';
import { runAgeClear } from '../../../../src/engine/ladder/ageClear';
import { countNew, type LadderState, type PlannedItem } from '../../../../src/engine/ladder/state';
import { findStale, runSupersede } from '../../../../src/engine/ladder/supersede';
import { elisionMarker, runTruncate, savedOutputPointer } from '../../../../src/engine/ladder/truncate';
import { CLEARED_PLACEHOLDER, DEFAULT_OPTIONS } from '../../../../src/engine/options';
import { SUMMARY_TAG } from '../../../../src/engine/fromMessages';
import { filePathOf } from '../../../../src/engine/resource';
import { HeuristicSummarizer } from '../../../../src/engine/summarizers/heuristic';
import { SECTION_TITLES } from '../../../../src/engine/summarizers/template';
import { charEstimateTokenizer } from '../../../../src/engine/tokens/tokenizer';
import { readLiveContext } from '../../../../src/sessions/claude-code/liveContext';
import { engineContextOf } from '../../../../src/sessions/engineContext';
import { copyScenario, FIXTURES } from '../../cli/support';
import { ladderState } from './helpers';

// A copy, so nothing a test does can touch test/fixtures; the character tokenizer matches ladderState's.
async function fixtureContext(scenario: string): Promise<Context> {
  const live = await readLiveContext(copyScenario(scenario).transcript);
  assert.ok(live.ok, `${scenario}: ${live.ok ? '' : live.error.message}`);
  return engineContextOf(live.value, charEstimateTokenizer);
}

const results = (context: Context, tool?: string): ContextItem[] =>
  context.items.filter((item) => item.kind === 'tool_result' && (tool === undefined || item.toolName === tool));
const pathEnds =
  (suffix: string) =>
  (item: ContextItem): boolean =>
    filePathOf(item.resourceKey)?.endsWith(suffix) ?? false;
const plannedOf = (state: LadderState, item: ContextItem): PlannedItem => state.planned[item.id] as PlannedItem;
const only = <T>(list: T[], what: string): T => {
  assert.equal(list.length, 1, what);
  return list[0] as T;
};

/** The tiers a test does not look at, switched off, and a one-turn recent window (each fixture is far below 10 % of 200k). */
const ISOLATE: EngineOptionsInput = { trigger: 'manual', preserve: { recentTurns: 1, recentPercent: 0 } };
const withoutTiers = (...tiers: ('supersede' | 'ageClear' | 'truncate' | 'summary')[]): EngineOptionsInput => ({
  ...ISOLATE,
  ...Object.fromEntries(tiers.map((tier) => [tier, { enabled: false }])),
});

describe('tier 1 on recorded transcripts: superseded tool outputs', () => {
  it('repeated-reads: older reads of a file go stale behind the newest, paged reads behind the later edit', async () => {
    const context = await fixtureContext('repeated-reads');
    const config = results(context, 'Read').filter(pathEnds('/src/config.ts'));
    const pages = results(context, 'Read').filter(pathEnds('/CHANGELOG.md'));
    const changelogEdit = only(results(context, 'Edit').filter(pathEnds('/CHANGELOG.md')), 'one edit of the changelog');
    assert.equal(config.length, 3, 'read before the edit, after it and at the end');
    assert.equal(new Set(pages.map((page) => page.resourceKey)).size, 2, 'each page (offset/limit) is its own resource');

    const stale = findStale(context.items, DEFAULT_OPTIONS.supersede);
    const [first, second, newest] = config as [ContextItem, ContextItem, ContextItem];
    assert.equal(stale.get(first.id)?.why, `superseded by #${second.id} (same file, newer)`);
    assert.equal(stale.get(second.id)?.why, `superseded by #${newest.id} (same file, newer)`);
    assert.ok(!stale.has(newest.id));
    for (const page of pages) assert.equal(stale.get(page.id)?.why, `superseded by #${changelogEdit.id} (file written later)`);
    for (const edit of results(context, 'Edit')) assert.ok(!stale.has(edit.id), 'a write is what makes reads stale, never stale itself');
  });

  it('repeated-reads: stubs the paged reads the edit made stale, with the default template, and leaves the edits alone', async () => {
    const context = await fixtureContext('repeated-reads');
    const state = ladderState(context);
    const report = runSupersede(state);
    const changelogEdit = only(results(context, 'Edit').filter(pathEnds('/CHANGELOG.md')), 'one edit of the changelog');
    const pages = results(context, 'Read').filter(pathEnds('/CHANGELOG.md'));

    // The config reads go stale too; each is stubbed only where its stub is the smaller text.
    const staleConfig = results(context, 'Read').filter(pathEnds('/src/config.ts')).slice(0, -1);
    const stubbedConfig = staleConfig.filter((read) => plannedOf(state, read).fate === 'compacted');
    for (const read of stubbedConfig) assert.ok(plannedOf(state, read).tokensAfter < read.tokens, `#${read.id}`);
    assert.equal(report.acted, pages.length + stubbedConfig.length);
    for (const page of pages) {
      const planned = plannedOf(state, page);
      const [, offset, limit] = /#(\d+)\+(\d+)$/.exec(page.resourceKey ?? '') ?? [];
      const size = `${Buffer.byteLength(page.text, 'utf8').toLocaleString('en-US')} bytes, ~${page.tokens.toLocaleString('en-US')} tokens`;
      assert.equal(planned.fate, 'compacted');
      assert.equal(
        planned.text,
        `[COMPACTED] Earlier Read output for ${filePathOf(page.resourceKey)} (offset ${offset}, limit ${limit}) (${size}) removed: the file was changed later (#${changelogEdit.id}). ref: archive-pending#${page.id}`,
      );
    }
    for (const edit of results(context, 'Edit')) assert.equal(plannedOf(state, edit).fate, 'preserved', 'file_write is denied by default');
    for (const read of [
      ...staleConfig.filter((stale) => !stubbedConfig.includes(stale)),
      ...results(context, 'Read').filter(pathEnds('/src/config.ts')).slice(-1),
    ])
      assert.equal(plannedOf(state, read).text, read.text);
  });

  it('repeated-reads: with a stub shorter than the file, the older config reads are stubbed and the newest stays verbatim', async () => {
    const context = await fixtureContext('repeated-reads');
    const state = ladderState(context, { supersede: { stubTemplate: '[COMPACTED] Earlier output for {resource}.' } });
    runSupersede(state);
    const [first, second, newest] = results(context, 'Read').filter(pathEnds('/src/config.ts')) as [ContextItem, ContextItem, ContextItem];
    const stub = `[COMPACTED] Earlier output for ${filePathOf(newest.resourceKey)}.`;
    assert.deepEqual(
      [first, second].map((read) => [plannedOf(state, read).text, plannedOf(state, read).reason]),
      [
        [stub, `superseded by #${second.id} (same file, newer)`],
        [stub, `superseded by #${newest.id} (same file, newer)`],
      ],
    );
    assert.equal(plannedOf(state, newest).fate, 'preserved');
    assert.equal(plannedOf(state, newest).text, newest.text);
  });

  it('repeated-reads: without writes superseding reads, the two changelog pages do not supersede each other', async () => {
    const context = await fixtureContext('repeated-reads');
    const state = ladderState(context, { supersede: { writesSupersedeReads: false } });
    runSupersede(state);
    for (const page of results(context, 'Read').filter(pathEnds('/CHANGELOG.md'))) assert.equal(plannedOf(state, page).fate, 'preserved', page.resourceKey);
  });

  it('commands: a rerun test command supersedes the failing run (test_execution is not denied by default), unless denied', async () => {
    const context = await fixtureContext('commands');
    const [failing, passing] = results(context, 'Bash') as [ContextItem, ContextItem];
    // `node --test` is a test run for the categoriser; seed 002 lists test_execution among the compactable categories.
    assert.equal(failing.toolCategory, 'test_execution');
    assert.equal(failing.resourceKey, passing.resourceKey);
    assert.ok(failing.isError);

    const byDefault = ladderState(context);
    runSupersede(byDefault);
    assert.equal(plannedOf(byDefault, failing).reason, `superseded by #${passing.id} (same command, newer)`);
    assert.ok(plannedOf(byDefault, failing).text.startsWith(`[COMPACTED] Earlier Bash output for ${failing.resourceKey?.replace(/^cmd:/, '')} (`));
    assert.equal(plannedOf(byDefault, passing).text, passing.text);
    for (const edit of results(context, 'Edit')) assert.equal(plannedOf(byDefault, edit).text, edit.text);

    const denied = ladderState(context, { supersede: { deniedCategories: [...DEFAULT_OPTIONS.supersede.deniedCategories, 'test_execution'] } });
    runSupersede(denied);
    assert.equal(plannedOf(denied, failing).fate, 'preserved');
  });

  it('repeated-reads: the compacted conversation keeps every tool_use paired with its tool_result', async () => {
    const context = await fixtureContext('repeated-reads');
    const result = await compact(context, withoutTiers('ageClear', 'truncate', 'summary'), { tokenizer: charEstimateTokenizer });
    assert.equal(result.status, 'compacted', result.message);
    assert.ok(result.items.some((fate) => fate.tier === 'supersede'));
    assertPaired(result, context);
    const stubbed = result.conversation.messages
      .flatMap((message) => message.content)
      .filter((block) => block.type === 'tool_result' && String(block.content).startsWith('[COMPACTED] '));
    assert.equal(stubbed.length, result.metrics.perTier.supersede.items);
  });
});

/** Every call answered in the very next message, and the same calls as before compaction. */
function assertPaired(result: CompactionResult, context: Context): void {
  const { messages } = result.conversation;
  const idsOf = (index: number, type: string, key: string): string[] =>
    (messages[index]?.content ?? []).filter((block) => block.type === type).map((block) => String(block[key]));
  messages.forEach((message, index) => {
    if (message.role === 'assistant') assert.deepEqual(idsOf(index + 1, 'tool_result', 'tool_use_id'), idsOf(index, 'tool_use', 'id'), `message ${index}`);
  });
  const kept = new Set(result.items.filter((fate) => fate.fate !== 'dropped').map((fate) => fate.id));
  const keptUses = context.items.filter((item) => item.kind === 'tool_use' && kept.has(item.id)).map((item) => item.toolUseId);
  assert.deepEqual(
    messages.flatMap((_message, index) => idsOf(index, 'tool_use', 'id')),
    keptUses,
  );
}

describe('tier 2 on recorded transcripts: age-based clearing (commands)', () => {
  const cleared = (state: LadderState): ContextItem[] => state.planned.filter((planned) => planned.tier === 'age-clear').map((planned) => planned.item);

  it('clears the results older than the last N tool uses and keeps those verbatim', async () => {
    const context = await fixtureContext('commands');
    const keep = DEFAULT_OPTIONS.ageClear.keepLastToolUses;
    const state = ladderState(context, { ageClear: { clearAtLeastTokens: 0 } });
    const report = runAgeClear(state);
    const all = results(context);
    assert.deepEqual(cleared(state), all.slice(0, -keep));
    // Each stub names the tool and what it ran on, keeps a failing run's verdict, and cites its archive ref.
    for (const item of all.slice(0, -keep)) {
      const text = plannedOf(state, item).text;
      assert.ok(
        text.startsWith(`${CLEARED_PLACEHOLDER} ${item.toolName ?? ''} `) && text.endsWith(`ref: archive-pending#${item.id}`),
        `${item.toolName} #${item.id}`,
      );
      if (item.isError) assert.match(text, / failed: Exit code 1/);
    }
    for (const item of all.slice(-keep)) assert.equal(plannedOf(state, item).text, item.text, `${item.toolName} #${item.id}`);
    assert.equal(report.acted, all.length - keep);
  });

  it('clears only when at least clearAtLeastTokens would go', async () => {
    const context = await fixtureContext('commands');
    const probe = ladderState(context, { ageClear: { clearAtLeastTokens: 0 } });
    runAgeClear(probe);
    const clearable = probe.planned
      .filter((planned) => planned.tier === 'age-clear')
      .reduce((sum, planned) => sum + planned.item.tokens - planned.tokensAfter, 0);

    const enough = ladderState(context, { ageClear: { clearAtLeastTokens: clearable } });
    assert.equal(runAgeClear(enough).acted, cleared(probe).length);
    const short = ladderState(context, { ageClear: { clearAtLeastTokens: clearable + 1 } });
    const skipped = runAgeClear(short);
    assert.equal(skipped.acted, 0);
    assert.equal(skipped.note, `skipped: would clear only ${clearable.toLocaleString('en-US')} tokens (< ${(clearable + 1).toLocaleString('en-US')})`);
    assert.ok(short.planned.every((planned) => planned.fate === 'preserved'));
  });

  it('never clears an excluded tool, however old', async () => {
    const context = await fixtureContext('commands');
    const state = ladderState(context, { ageClear: { clearAtLeastTokens: 0, excludeTools: ['Bash'] } });
    runAgeClear(state);
    const aged = results(context).slice(0, -DEFAULT_OPTIONS.ageClear.keepLastToolUses);
    assert.ok(
      aged.some((item) => item.toolName === 'Bash'),
      'the failing test run is among the aged results',
    );
    assert.deepEqual(
      cleared(state),
      aged.filter((item) => item.toolName !== 'Bash'),
    );
    for (const bash of results(context, 'Bash')) assert.equal(plannedOf(state, bash).text, bash.text);
  });
});

describe('tier 3 on recorded transcripts: truncation', () => {
  const MARKER = /\[… [\d,]+ tokens \(([\d,]+) chars\) elided …\]/;
  const elidedChars = (text: string): number => Number((MARKER.exec(text)?.[1] ?? 'NaN').replace(/,/g, ''));
  const persistedOutput = (context: Context): ContextItem =>
    only(
      results(context, 'Bash').filter((item) => item.text.startsWith('<persisted-output>')),
      'one persisted output',
    );

  it("big-output: the live context holds Claude Code's <persisted-output> preview, not the 32 KB output saved aside", async () => {
    const context = await fixtureContext('big-output');
    const persisted = persistedOutput(context);
    const saved = /Full output saved to: (\/home\/user\/\.claude\/(\S+))\n/.exec(persisted.text);
    assert.ok(saved, persisted.text.slice(0, 200));
    const savedBytes = statSync(join(FIXTURES, 'big-output', saved[2] as string)).size;
    assert.ok(savedBytes > 30_000 && persisted.text.length < savedBytes / 10, `${persisted.text.length} chars in context, ${savedBytes} bytes saved`);
    assert.ok(
      results(context, 'Read').some((read) => filePathOf(read.resourceKey) === saved[1]),
      'the agent paged through the saved file',
    );
  });

  it('big-output: cuts each output above its category cap (tail for commands, head+tail for reads) with an exact elision marker', async () => {
    const context = await fixtureContext('big-output');
    // Caps below both outputs' measured sizes (the preview and the page are a few hundred tokens).
    const perCategory = {
      ...DEFAULT_OPTIONS.truncate.perCategory,
      command_execution: { mode: 'tail' as const, capTokens: 200 },
      file_read: { mode: 'head+tail' as const, capTokens: 150 },
    };
    const state = ladderState(context, { truncate: { perCategory } });
    runTruncate(state);
    const markerTokens = countNew(state, elisionMarker(0, 0));

    const persisted = plannedOf(state, persistedOutput(context));
    // The tail of a <persisted-output> preview is the middle of the log: the pointer to the saved
    // full output stays on top so the model can still read it back.
    const pointer = savedOutputPointer(persisted.item.text);
    assert.match(pointer, /^<persisted-output>\n.*Full output saved to: \/home\/user\/\.claude\/\S+\n$/);
    const [marker, ...tail] = persisted.text.slice(pointer.length).split('\n');
    assert.ok(persisted.text.startsWith(pointer));
    assert.equal(persisted.reason, `truncated tail only (cap ${perCategory.command_execution.capTokens.toLocaleString('en-US')} tokens)`);
    assert.match(marker ?? '', new RegExp(`^${MARKER.source}$`));
    assert.ok(persisted.item.text.endsWith(tail.join('\n')));
    assert.equal(pointer.length + elidedChars(persisted.text) + tail.join('\n').length, persisted.item.text.length);

    const page = plannedOf(state, only(results(context, 'Read'), 'one paged read'));
    const [head, rest] = page.text.split(MARKER.exec(page.text)?.[0] ?? '\u0000') as [string, string];
    assert.equal(page.reason, `truncated head+tail (cap ${perCategory.file_read.capTokens.toLocaleString('en-US')} tokens)`);
    assert.ok(page.item.text.startsWith(head.slice(0, -1)) && page.item.text.endsWith(rest.slice(1)), "head and tail are the original's, joined by the marker");
    assert.equal(head.length - 1 + rest.length - 1 + elidedChars(page.text), page.item.text.length);

    for (const cut of [persisted, page])
      assert.ok(cut.tokensAfter <= perCategory[cut.item.toolCategory ?? 'other'].capTokens + markerTokens, `#${cut.item.id}: ${cut.tokensAfter} tokens`);
    for (const small of results(context).filter((item) => item.tokens <= perCategory[item.toolCategory ?? 'other'].capTokens))
      assert.equal(plannedOf(state, small).text, small.text);
  });

  it('big-output: head mode keeps the start of the persisted output, with the path of the saved file', async () => {
    const context = await fixtureContext('big-output');
    const state = ladderState(context, {
      truncate: { perCategory: { ...DEFAULT_OPTIONS.truncate.perCategory, command_execution: { mode: 'head', capTokens: 500 } } },
    });
    runTruncate(state);
    const persisted = plannedOf(state, persistedOutput(context));
    const head = persisted.text.slice(0, persisted.text.lastIndexOf('\n'));
    assert.equal(persisted.reason, 'truncated head only (cap 500 tokens)');
    assert.match(persisted.text, new RegExp(`\\n${MARKER.source}$`));
    assert.ok(persisted.item.text.startsWith(head) && head.includes('Full output saved to: '));
    assert.equal(head.length + elidedChars(persisted.text), persisted.item.text.length);
  });

  it('repeated-reads: deduplicates identical re-reads before truncating, and truncation leaves the reference alone', async () => {
    const context = await fixtureContext('repeated-reads');
    // A read cap below the changelog pages' measured ~700 tokens, above the config file's ~90.
    const truncate = { perCategory: { ...DEFAULT_OPTIONS.truncate.perCategory, file_read: { mode: 'head+tail' as const, capTokens: 300 } } };
    const preview = plan(context, { ...withoutTiers('supersede', 'ageClear', 'summary'), truncate }, { tokenizer: charEstimateTokenizer });
    assert.deepEqual(
      preview.tiers.map((tier) => tier.tier),
      ['dedupe', 'truncate'],
    );
    const [beforeEdit, afterEdit, last] = results(context, 'Read').filter(pathEnds('/src/config.ts')) as [ContextItem, ContextItem, ContextItem];
    assert.equal(afterEdit.text, last.text, 'Claude Code returned the unchanged file in full again');
    const fate = (item: ContextItem) => preview.items[item.id];
    assert.deepEqual([fate(afterEdit)?.tier, fate(afterEdit)?.reason], ['dedupe', `duplicate of #${last.id} (identical output)`]);
    assert.equal(fate(beforeEdit)?.fate, 'preserved', 'the file changed in between: not a duplicate');
    assert.equal(fate(last)?.fate, 'preserved');
    const pages = results(context, 'Read').filter(pathEnds('/CHANGELOG.md'));
    assert.ok(pages.every((page) => fate(page)?.tier === 'truncate'));
    assert.equal(preview.metrics.perTier.truncate.items, pages.length);
  });
});

describe('tier 4 on recorded transcripts: summarisation', () => {
  /** Sections of our framed summary, read independently of the engine's parser. */
  function sectionsOf(summary: string): Map<string, string[]> {
    const body = new RegExp(`<${SUMMARY_TAG} [^>]*>\\n([\\s\\S]*)\\n</${SUMMARY_TAG}>$`).exec(summary)?.[1];
    assert.ok(body, summary);
    return new Map(
      body.split(/\n\n(?=## )/).map((block) => {
        const [heading = '', ...bullets] = block.split('\n');
        return [heading.replace(/^## /, ''), bullets.map((bullet) => bullet.replace(/^- /, ''))];
      }),
    );
  }

  /** The current turn: the message holding the latest user text and everything after it. */
  const currentTurn = (context: Context): ContextItem[] => {
    const last = context.items.findLast((item) => item.kind === 'user');
    return context.items.filter((item) => last !== undefined && item.messageIndex >= last.messageIndex);
  };

  /** A heuristic summarizer that notes when it ran and what it was asked. */
  function recording(log: string[]): Summarizer & { prompts: string[] } {
    const heuristic = new HeuristicSummarizer();
    const prompts: string[] = [];
    return {
      name: 'recording',
      prompts,
      summarize(request) {
        log.push('summarize');
        prompts.push(request.prompt);
        return heuristic.summarize(request);
      },
    };
  }

  class OrderedArchive extends MemoryArchive {
    constructor(private readonly log: string[]) {
      super();
    }
    override put(...args: Parameters<MemoryArchive['put']>): ReturnType<MemoryArchive['put']> {
      this.log.push('archive');
      return super.put(...args);
    }
  }

  const summarise = async (context: Context, options: EngineOptionsInput = {}) => {
    const log: string[] = [];
    const archive = new OrderedArchive(log);
    const summarizer = recording(log);
    const result = await compact(
      context,
      { ...withoutTiers('supersede', 'ageClear', 'truncate'), ...options },
      { tokenizer: charEstimateTokenizer, archive, summarizer },
    );
    assert.equal(result.status, 'compacted', result.message);
    assert.ok(result.summary);
    return { result, summary: result.summary, log, archive, prompts: summarizer.prompts };
  };

  it('multi-prompt: a structured summary of the earlier prompts; the current turn and the original ask stay verbatim', async () => {
    const context = await fixtureContext('multi-prompt');
    const { result, summary } = await summarise(context);
    const sections = sectionsOf(summary.text);
    const order = [...sections.keys()].map((title) => SECTION_TITLES.indexOf(title as (typeof SECTION_TITLES)[number]));
    assert.ok(
      order.every((index, at) => index >= 0 && (at === 0 || index > (order[at - 1] ?? -1))),
      `template sections in order: ${[...sections.keys()].join(', ')}`,
    );

    const ask = context.items.find((item) => item.kind === 'user') as ContextItem;
    const constraint = ask.text.slice(ask.text.indexOf('Constraints:'));
    assert.ok(sections.get('Constraints')?.includes(constraint), "the person's constraints, word for word");
    const dropped = new Set(result.items.filter((fate) => fate.fate === 'dropped').map((fate) => fate.id));
    const touched = context.items
      .filter((item) => item.kind === 'tool_use' && dropped.has(item.id) && filePathOf(item.resourceKey) !== undefined)
      .map((item) => filePathOf(item.resourceKey) ?? '');
    assert.ok(touched.length > 0);
    // Relative to the workspace, changed files first with what was done to them.
    for (const path of touched)
      assert.ok(
        sections.get('Files')?.some((line) => line.startsWith(`${path.replace('/home/user/multi-prompt/', '')} — `)),
        path,
      );
    // The agent's TODO is listed once, as an open loop, not again as remaining work.
    const todo = context.items.find((item) => dropped.has(item.id) && item.kind === 'assistant' && item.text.includes('TODO:'));
    const todoText = /TODO:[^\n]*/.exec(todo?.text ?? '')?.[0] ?? '';
    assert.ok(todoText !== '');
    const listed = [...(sections.get('Open loops') ?? []), ...(sections.get('Remaining work') ?? [])].filter((line) => line.includes(todoText));
    assert.equal(listed.length, 1, listed.join('\n'));

    assert.equal(result.items[ask.id]?.fate, 'preserved');
    for (const item of currentTurn(context)) assert.notEqual(result.items[item.id]?.fate, 'dropped', `#${item.id} ${item.kind} is in the current turn`);
    assert.ok(
      result.items
        .filter((fate) => fate.fate === 'dropped')
        .every((fate) => fate.tier === 'summarize' && fate.reason.startsWith('summarised into the summary (archived)')),
    );
    assertPaired(result, context);
    // The agent's own open question is a loop too: kept word for word, so verification holds.
    assert.ok(
      sections.get('Open loops')?.some((line) => line.startsWith('Open question: should `timeoutMs` apply per attempt')),
      "the agent's open question",
    );
    assert.equal(result.verification?.ok, true);
  });

  it('multi-prompt: archives the whole context before the summarizer runs and anything is dropped', async () => {
    const context = await fixtureContext('multi-prompt');
    const { result, log, archive } = await summarise(context);
    assert.deepEqual(log, ['archive', 'summarize']);
    const entry = result.archive ? await archive.get(result.archive.id) : undefined;
    assert.ok(entry, 'the result points at its archive entry');
    assert.match(result.summary?.text ?? '', new RegExp(`archive="${entry.id}"`));
    assert.equal(entry.reason, 'manual');
    const dropped = result.items.filter((fate) => fate.fate === 'dropped');
    assert.ok(dropped.length > 0);
    assert.deepEqual(
      entry.context.items.map((item) => item.text),
      context.items.map((item) => item.text),
    );
  });

  it('multi-prompt: focus keeps the matching messages verbatim and steers the summarizer with the focus text as given', async () => {
    const context = await fixtureContext('multi-prompt');
    const focus = 'prod.yaml';
    const { result, prompts, archive } = await summarise(context, { focus });
    assert.match(prompts[0] ?? '', new RegExp(`\\nFocus especially on: ${focus.replace('.', '\\.')}\\.\\n`));
    const entry = result.archive ? await archive.get(result.archive.id) : undefined;
    assert.equal(entry?.reason, `manual: ${focus}`);

    const matching = context.items.filter((item) => ['user', 'assistant', 'tool_use'].includes(item.kind) && item.text.includes(focus));
    const focused = result.items.filter((fate) => fate.protection === 'focus');
    assert.ok(focused.length > 0, 'some matches had no other reason to stay');
    for (const fate of focused) assert.equal(fate.reason, `focus match: ${focus}`);
    const sent = JSON.stringify(result.conversation.messages);
    for (const item of matching) {
      assert.equal(result.items[item.id]?.fate, 'preserved', `#${item.id} mentions ${focus}`);
      // A tool_use item's text is a rendering; its block goes out as recorded.
      if (item.kind !== 'tool_use') assert.ok(sent.includes(JSON.stringify(item.text).slice(1, -1)), `#${item.id} verbatim in the conversation`);
    }
  });

  it("compact: merges the agent's own /compact summary whole, sections mapped onto the template, framing gone", async () => {
    const context = await fixtureContext('compact');
    const previous = only(
      context.items.filter((item) => item.kind === 'summary'),
      "the agent's summary",
    );
    const { result, summary } = await summarise(context);
    assert.equal(result.items[previous.id]?.fate, 'dropped');
    assert.ok(result.metrics.previousSummaryReused);
    assert.doesNotMatch(
      summary.text,
      /This session is being continued|system-reminder|tools-used-before-summary|^Summary:|If you need specific details|Continue the conversation/m,
    );

    // Claude Code's numbered sections, read straight from the recorded text.
    const recorded = new Map<string, string[]>();
    let heading = '';
    for (const line of previous.text.slice(previous.text.indexOf('\nSummary:\n'), previous.text.indexOf('\nIf you need specific details')).split('\n')) {
      const numbered = /^\d+\. (.+):$/.exec(line);
      if (numbered) recorded.set((heading = numbered[1] ?? ''), []);
      else if (heading && line.trim() !== '') recorded.get(heading)?.push(line.trim());
    }
    const mapping: Record<string, string> = {
      'Primary Request and Intent': 'Task and intent',
      'Key Technical Concepts': 'Facts established',
      'Files and Code Sections': 'Files',
      'Errors and fixes': 'Errors and root causes',
      'Pending Tasks': 'Remaining work',
      'Current Work': 'Remaining work',
    };
    assert.deepEqual([...recorded.keys()], Object.keys(mapping), 'the sections Claude Code 2.1.328 writes');
    const sections = sectionsOf(summary.text);
    // The agent recorded its own /compact focus in the summary: an instruction, not a fact, so it goes.
    const withoutFocus = (line: string): string => line.replace(/\s*Focus: focus on the retry logic\./, '');
    for (const [title, lines] of recorded) {
      assert.ok(lines.length > 0, title);
      // A pending task a later item completed is listed as done, with where, in the summary's words.
      const done = (line: string): boolean =>
        sections.get('Done')?.some((entry) => entry.startsWith(line) && / — (?:done|passed) \(#\d+\): /.test(entry)) ?? false;
      for (const line of lines)
        assert.ok(sections.get(mapping[title] ?? '')?.includes(withoutFocus(line)) || done(line), `${title} → ${mapping[title]}: ${line}`);
    }
    assert.ok(
      sections.get('Done')?.some((entry) => entry.startsWith('Stop retrying client errors (4xx). — passed')),
      'the 4xx task, done in the turn after the summary',
    );
    assert.doesNotMatch(summary.text, /Focus: focus on/);
  });

  it("compact: in the turn after the agent's compaction, the prompt and the last tool uses stay verbatim; the aged part may be summarised", async () => {
    const context = await fixtureContext('compact');
    const { result } = await summarise(context);
    const turn = currentTurn(context);
    assert.ok(
      turn.some((item) => item.kind === 'reminder' && item.text.includes('Result of calling the Read tool')),
      'Claude Code re-attached the file it had read',
    );
    // Issue 13: a long current turn is summarised like any span, except what the agent is acting on.
    for (const item of turn.filter((entry) => entry.kind === 'user')) assert.equal(result.items[item.id]?.fate, 'preserved', `#${item.id} the latest prompt`);
    const lastUses = turn.filter((item) => item.kind === 'tool_use').slice(-DEFAULT_OPTIONS.ageClear.keepLastToolUses);
    for (const item of lastUses) assert.notEqual(result.items[item.id]?.fate, 'dropped', `#${item.id} one of the last tool uses`);
    assertPaired(result, context);
  });
});
