// A fork must read back as what its preview showed, on every transcript we have (recorded here and
// public real ones): the same fill (an estimate until the first response), one summary, our
// compaction labelled as ours, every tool_use with its result, and on a second compaction the
// latest prompt still kept.
import assert from 'node:assert/strict';
import { copyFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, it } from 'node:test';
import { compact, sumTokens, type CompactionResult, type Context } from '../../../../src/engine';
import { readLiveContext } from '../../../../src/sessions/claude-code/liveContext';
import { writeFork } from '../../../../src/sessions/claude-code/fork';
import { engineContextOf } from '../../../../src/sessions/engineContext';
import { forkRequestFromResult } from '../../../../src/sessions/claude-code/engineContext';
import type { LiveContext } from '../../../../src/sessions/types';
import { claudeTranscripts } from '../../../support/claudeFixtures';
import { tempDir } from '../../../support/tempDir';

/**
 * Sessions with stale reads and big outputs: a manual compaction always has work there. (big-output's
 * outputs were saved aside by Claude Code: measured, its live context is mostly the system prompt.)
 */
const MUST_COMPACT = ['parallel', 'repeated-reads', 'demo'];

/** As `Compact…` with a target: down to 15 % of the window, or by half when already below it. */
function manualTarget(context: Context): number {
  return Math.min(Math.round(context.windowTokens * 0.15), Math.round(context.usedTokens / 2));
}

async function compactToFork(live: LiveContext): Promise<{ context: Context; result: CompactionResult; path: string | null }> {
  const context = engineContextOf(live);
  const result = await compact(context, {
    trigger: 'manual',
    targetTokens: manualTarget(context),
    explicitTarget: true,
    preserve: { recentTurns: 1, recentPercent: 0 },
  });
  if (result.status !== 'compacted') return { context, result, path: null };
  const request = await forkRequestFromResult({ live, context, result, focus: null, title: live.session.title });
  assert.ok(request.ok, request.ok ? '' : request.error.message);
  const fork = await writeFork(request.value);
  assert.ok(fork.ok, fork.ok ? '' : fork.error.message);
  return { context, result, path: fork.value.path };
}

function lastPrompt(context: Context): string | undefined {
  return context.items.filter((item) => item.kind === 'user').at(-1)?.text;
}

function unpaired(live: LiveContext): string[] {
  const uses = live.entries.flatMap((entry) => entry.toolUseIds);
  const results = new Set(live.entries.flatMap((entry) => entry.toolResultIds));
  const lastAssistant = [...live.entries].reverse().find((entry) => entry.kind === 'assistant');
  // Calls of the newest response may still be running.
  return uses.filter((id) => !results.has(id) && !lastAssistant?.toolUseIds.includes(id));
}

describe('forks read back as their preview', () => {
  for (const { name, path } of claudeTranscripts()) {
    it(name, async () => {
      const copy = join(tempDir('cl-readback-'), basename(path));
      copyFileSync(path, copy);
      const live = await readLiveContext(copy);
      assert.ok(live.ok);
      assert.deepEqual(unpaired(live.value), [], 'every finished tool call of the source has its result');
      const first = await compactToFork(live.value);
      if (first.path === null) {
        // Short sessions may have nothing outside the recent window; these have plenty.
        assert.ok(!MUST_COMPACT.includes(name), `${name} gave ${first.result.status}: ${first.result.message}`);
        return;
      }

      const forked = await readLiveContext(first.path);
      assert.ok(forked.ok);
      const fork = forked.value;
      assert.deepEqual(fork.diagnostics, []);
      assert.deepEqual(unpaired(fork), []);
      assert.equal(fork.session.forkOf?.title, live.value.session.title);
      assert.equal(fork.compactions.at(-1)?.by, 'context-lens');
      // Fill: what the preview said, as an estimate until Claude Code answers.
      assert.equal(fork.fill.source, 'estimate');
      const after = first.result.metrics.tokensAfter;
      const shown = fork.fill.usedTokens + fork.fill.pendingTokens;
      assert.ok(Math.abs(shown - after) <= after * 0.05, `fork reads ${shown}, the preview said ${after}`);

      const context = engineContextOf(fork);
      assert.ok(Math.abs(sumTokens(context.items) - after) <= after * 0.05);
      const summaryMessages = new Set(context.items.filter((item) => item.kind === 'summary').map((item) => item.messageIndex));
      assert.ok(summaryMessages.size <= 1, 'one summary');
      assert.equal(lastPrompt(context), lastPrompt(first.context), 'the latest prompt survives the first compaction');

      // A second compaction keeps the latest prompt: the preserved turns are not summary.
      const second = await compact(context, {
        trigger: 'manual',
        targetTokens: manualTarget(context),
        explicitTarget: true,
        preserve: { recentTurns: 1, recentPercent: 0 },
      });
      const prompt = lastPrompt(context);
      if (prompt !== undefined) {
        const fate = second.items.find((item) => context.items[item.id]?.text === prompt && context.items[item.id]?.kind === 'user');
        assert.notEqual(fate?.fate, 'dropped', 'the latest prompt is kept on a second compaction');
      }
    });
  }
});
