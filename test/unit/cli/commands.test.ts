import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { copyFileSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { readFill } from '../../../src/sessions/claude-code/fill';
import { readLiveContext } from '../../../src/sessions/claude-code/liveContext';
import { SCENARIOS, copyScenario, run } from './support';
import { tempDir } from '../../support/tempDir';

const hash = (path: string): string => createHash('sha256').update(readFileSync(path)).digest('hex');

describe('ctxlens sessions', () => {
  it('lists every scenario as JSON and as a table', async () => {
    const copies = SCENARIOS.map(copyScenario);
    const flags = copies.flatMap((copy) => ['--config-dir', copy.configDir]);
    const json = await run(['sessions', '--all', '--json', ...flags]);
    assert.equal(json.code, 0, json.err);
    const sessions = JSON.parse(json.out) as { id: string; path: string; agent: string; isSidechain: boolean; parentSessionId?: string }[];
    const main = sessions.filter((session) => !session.isSidechain);
    assert.deepEqual(main.map((session) => session.id).sort(), copies.map((copy) => copy.sessionId).sort());
    // Subagents are listed too, each naming the session that spawned it.
    const ids = new Set(main.map((session) => session.id));
    assert.ok(sessions.filter((session) => session.isSidechain).every((session) => ids.has(session.parentSessionId ?? '')));
    assert.ok(sessions.every((session) => session.agent === 'claude-code'));
    const text = await run(['sessions', '--all', ...flags]);
    assert.equal(text.code, 0);
    assert.match(text.out, /^TITLE\s+AGENT\s+MODEL\s+LAST ACTIVITY \(UTC\)\s+SIZE\s+ID/);
    for (const copy of copies) assert.match(text.out, new RegExp(copy.sessionId));
  });

  it('lists one workspace by its cwd', async () => {
    const copy = copyScenario('commands');
    const result = await run(['sessions', '--json', '--config-dir', copy.configDir, '--workspace', '/home/user/commands']);
    assert.equal(result.code, 0, result.err);
    assert.deepEqual(
      (JSON.parse(result.out) as { id: string }[]).map((session) => session.id),
      [copy.sessionId],
    );
  });

  it('escapes a newline or ESC in an id taken from a file name: one row per session, nothing the terminal acts on', async () => {
    const copy = copyScenario('commands');
    const hostile = 'evil\nid\u001b]0;pwned\u0007';
    copyFileSync(copy.transcript, join(dirname(copy.transcript), `${hostile}.jsonl`));
    const text = await run(['sessions', '--all', '--config-dir', copy.configDir]);
    assert.equal(text.code, 0, text.err);
    assert.ok(![...text.out].some((char) => char.charCodeAt(0) < 0x20 && char !== '\n'));
    assert.match(text.out, /evil\\u000aid\\u001b\]0;pwned\\u0007/);
    assert.equal(text.out.trim().split('\n').length, 3);
  });
});

describe('ctxlens inspect', () => {
  for (const scenario of SCENARIOS) {
    it(`${scenario}: used tokens equal readFill, breakdown sums to them`, async () => {
      const copy = copyScenario(scenario);
      const result = await run(['inspect', copy.transcript, '--json']);
      assert.equal(result.code, 0, result.err);
      const report = JSON.parse(result.out) as {
        session: { id: string; path: string; agent: string; model: string };
        window: { tokens: number; source: string };
        used: { tokens: number; source: string; outputTokensPending: number };
        context: { tokens: number; measured: number; estimated: number };
        regions: { tokens: number; basis: string }[];
        percent: number;
        agentAutoCompact: { tokens: number; percent: number };
        breakdown: { category: string; tokens: number }[];
        compactions: unknown[];
        diagnostics: unknown[];
      };
      const fill = await readFill(copy.transcript);
      assert.ok(fill.ok);
      assert.equal(report.used.tokens, fill.value.fill.usedTokens);
      assert.equal(report.window.tokens, fill.value.fill.windowTokens);
      assert.equal(report.session.id, copy.sessionId);
      assert.deepEqual(
        report.breakdown.map((row) => row.category),
        ['system', 'tools', 'unrecorded', 'user', 'assistant', 'thinking', 'tool_use', 'tool_result', 'reminder', 'summary'],
      );
      // The parts add up to what the next request holds: the last call's exact prompt and output, and
      // the estimate of what was written after it, item by item.
      assert.equal(
        report.breakdown.reduce((sum, row) => sum + row.tokens, 0),
        report.context.tokens,
      );
      assert.equal(report.context.measured, report.used.tokens + report.used.outputTokensPending);
      assert.equal(
        report.regions.filter((region) => region.basis === 'estimated').reduce((sum, region) => sum + region.tokens, 0),
        report.context.estimated,
      );
      assert.equal(report.compactions.length, ['compact', 'compact-audit', 'demo', 'hook-inputs', 'long-compacted', 'long-demo'].includes(scenario) ? 1 : 0);
      assert.deepEqual(report.diagnostics, []);
    });
  }

  it('resolves a session id, honours --window and prints a gauge', async () => {
    const copy = copyScenario('demo');
    const result = await run(['inspect', copy.sessionId, '--window', '100000'], { CLAUDE_CONFIG_DIR: copy.configDir });
    assert.equal(result.code, 0, result.err);
    assert.match(result.out, /\[[█░│]{40}\] \d+\.\d % {2}[\d,]+ \/ 100,000/);
    assert.match(result.out, /CATEGORY\s+TOKENS\s+SHARE/);
    assert.match(result.out, /Compactions:\n {2}\S+ {2}agent, manual/);
  });

  it('exits 1 with one line for a missing file or an unknown id', async () => {
    const missing = await run(['inspect', '/nonexistent/x.jsonl']);
    assert.equal(missing.code, 1);
    assert.equal(missing.err, 'ctxlens inspect: no such transcript: /nonexistent/x.jsonl\n');
    const copy = copyScenario('commands');
    const unknown = await run(['inspect', 'no-such-id', '--config-dir', copy.configDir]);
    assert.equal(unknown.code, 1);
    assert.match(unknown.err, /^ctxlens inspect: unknown session id 'no-such-id'.*\n$/);
    const window = await run(['inspect', copy.transcript, '--window', 'big']);
    assert.equal(window.code, 2);
  });
});

describe('ctxlens compact', () => {
  // The recorded sessions are small: a 20k window makes them worth compacting.
  const squeeze = ['--window', '20000', '--target-percent', '40'];

  it('reports a compaction as JSON without writing next to the transcript', async () => {
    // Several prompts: everything before the latest one may be summarised.
    const copy = copyScenario('multi-prompt');
    const archive = tempDir('cl-archive-');
    const before = readdirSync(dirname(copy.transcript));
    const result = await run(['compact', copy.transcript, '--json', '--archive-dir', archive, ...squeeze]);
    assert.equal(result.code, 0, result.err);
    const report = JSON.parse(result.out) as Record<string, unknown> & {
      before: { tokens: number };
      after: { tokens: number };
      regions: { fate: string; reason: string; tier: string | null }[];
      summary: { text: string };
    };
    assert.equal(report.status, 'compacted');
    assert.ok(report.after.tokens < report.before.tokens);
    assert.ok((report.savingsPct as number) > 0);
    assert.ok(report.regions.some((region) => region.fate === 'dropped' && region.tier === 'summarize'));
    for (const key of ['messages', 'verification', 'metrics', 'diff', 'summary']) assert.ok(report[key], key);
    assert.equal(report.fork, undefined);
    assert.deepEqual(readdirSync(dirname(copy.transcript)), before);
    assert.deepEqual(readdirSync(archive), [], 'a preview archives nothing: only what is applied is kept');
  });

  it('stops as soon as a target given on the command line is met, and goes as far as the ladder goes without one', async () => {
    // Reads big enough that a stub saves something (repeated-reads' files are smaller than a stub).
    const copy = copyScenario('parallel');
    const archive = tempDir('cl-archive-');
    interface Report {
      status: string;
      tiers: { tier: string }[];
      regions: { fate: string; kind: string }[];
      metrics: {
        tokensBefore: number;
        tokensAfter: number;
        reinjectedTokens: number;
        toolResultsPruned: number;
        staleResources: string[];
        perTier: Record<string, { items: number; tokensSaved: number }>;
      };
    }
    const compactJson = async (...flags: string[]): Promise<Report> => {
      const result = await run(['compact', copy.transcript, '--json', '--window', '80000', '--archive-dir', archive, ...flags]);
      assert.equal(result.code, 0, result.err);
      return JSON.parse(result.out) as Report;
    };
    const loose = await compactJson('--target-percent', '99');
    const gentle = await compactJson('--target-percent', '75');
    const full = await compactJson();
    assert.equal(loose.status, 'noop');
    assert.deepEqual(
      gentle.tiers.map((tier) => tier.tier),
      ['supersede'],
    );
    assert.deepEqual(
      full.tiers.map((tier) => tier.tier),
      ['supersede', 'age-clear', 'dedupe', 'truncate', 'summarize'],
    );
    for (const report of [gentle, full]) {
      const { metrics } = report;
      const tierSum = Object.values(metrics.perTier).reduce((sum, tier) => sum + tier.tokensSaved, 0);
      assert.equal(tierSum - metrics.reinjectedTokens, metrics.tokensBefore - metrics.tokensAfter);
      const pruned = ['supersede', 'age-clear', 'dedupe', 'truncate'].reduce((sum, tier) => sum + (metrics.perTier[tier]?.items ?? 0), 0);
      assert.equal(metrics.toolResultsPruned, pruned);
      assert.ok(metrics.staleResources.length > 0);
      // One prompt only: the open loop. Its prompt is never summarised (its aged part may be, issue 13).
      assert.ok(!report.regions.some((region) => region.kind === 'user' && region.fate === 'dropped'));
    }
  });

  it('--write-session writes a resumable fork and leaves the source byte-identical', async () => {
    const copy = copyScenario('demo');
    const source = hash(copy.transcript);
    const state = tempDir('cl-state-');
    const result = await run(['compact', copy.sessionId, '--write-session', '--focus', 'retry logic', ...squeeze], {
      CLAUDE_CONFIG_DIR: copy.configDir,
      XDG_STATE_HOME: state,
    });
    assert.equal(result.code, 0, result.err);
    assert.match(result.out, /Resume it with: claude --resume [0-9a-f-]{36}/);
    assert.equal(hash(copy.transcript), source);
    assert.equal(readdirSync(join(state, 'context-lens', 'archive')).length, 1, 'default archive under XDG_STATE_HOME');

    const json = await run(['compact', copy.transcript, '--json', '--write-session', ...squeeze], { XDG_STATE_HOME: state });
    const { fork, summary } = JSON.parse(json.out) as { fork: { sessionId: string; path: string; resumeCommand: string }; summary: { text: string } };
    assert.equal(dirname(fork.path), dirname(copy.transcript));
    assert.equal(fork.resumeCommand, `claude --resume ${fork.sessionId}`);
    assert.equal(hash(copy.transcript), source);
    const live = await readLiveContext(fork.path);
    assert.ok(live.ok);
    assert.deepEqual(live.value.diagnostics, []);
    assert.equal(live.value.entries[0]?.kind, 'compact-summary');
    const first = live.value.messages[0]?.content[0];
    assert.ok(typeof first?.text === 'string' && first.text.includes(summary.text));
  });

  it('exits 1 for a summarizer without its key, 2 for an unknown one', async () => {
    const copy = copyScenario('commands');
    const noKey = await run(['compact', copy.transcript, '--summarizer', 'anthropic'], {});
    assert.equal(noKey.code, 1);
    assert.equal(noKey.err, 'ctxlens compact: --summarizer anthropic needs ANTHROPIC_API_KEY in the environment\n');
    const unknown = await run(['compact', copy.transcript, '--summarizer', 'gpt']);
    assert.equal(unknown.code, 2);
    assert.match(unknown.err, /unknown summarizer 'gpt'/);
  });
});
