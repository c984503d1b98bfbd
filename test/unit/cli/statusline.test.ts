import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { build } from 'esbuild';
import { resolveStatusLine, statusLine } from '../../../src/cli/statusline';
import { buildCliBundles } from '../../support/cliBundle';
import { tempDir } from '../../support/tempDir';

// Shaped as Claude Code's statusLine input (design notes §3), trimmed to the fields that matter.
const input = (contextWindow: Record<string, unknown>): string =>
  JSON.stringify({ hook_event_name: 'Status', session_id: 's', model: { id: 'claude-sonnet-5-5', display_name: 'Sonnet 5.5' }, context_window: contextWindow });

describe('ctxlens statusline', () => {
  it('prefers the current usage and shows the distance to the auto-compact point', () => {
    const line = statusLine(
      input({
        context_window_size: 200_000,
        used_percentage: 62,
        current_usage: { input_tokens: 10, cache_creation_input_tokens: 4_000, cache_read_input_tokens: 120_000, output_tokens: 900 },
      }),
    );
    assert.equal(line, 'ctx 62% · 124k/200k · 43k to auto-compact');
  });

  it('falls back to used_percentage, honours the percent override and says when compaction is due', () => {
    assert.equal(statusLine(input({ context_window_size: 1_000_000, used_percentage: 25, current_usage: null })), 'ctx 25% · 250k/1M · 717k to auto-compact');
    assert.equal(
      statusLine(input({ context_window_size: 200_000, used_percentage: 50 }), { CLAUDE_AUTOCOMPACT_PCT_OVERRIDE: '50' }),
      'ctx 50% · 100k/200k · auto-compact due',
    );
  });

  it("adds the session's cost from Claude Code's own input only when asked (--cost or CONTEXT_LENS_STATUSLINE_COST=1)", () => {
    const withCost = JSON.stringify({ ...JSON.parse(input({ context_window_size: 200_000, used_percentage: 62 })), cost: { total_cost_usd: 1234.5 } });
    assert.equal(statusLine(withCost), 'ctx 62% · 124k/200k · 43k to auto-compact');
    assert.equal(statusLine(withCost, {}, { cost: true }), 'ctx 62% · 124k/200k · 43k to auto-compact · $1,235 so far');
    assert.equal(statusLine(withCost, { CONTEXT_LENS_STATUSLINE_COST: '1' }), 'ctx 62% · 124k/200k · 43k to auto-compact · $1,235 so far');
    // No cost in the input: nothing is read to find one.
    assert.equal(statusLine(input({ context_window_size: 200_000, used_percentage: 62 }), {}, { cost: true }), 'ctx 62% · 124k/200k · 43k to auto-compact');
  });

  it("adds the prompt cache's health when asked (--cache): Claude Code's own prompt_cache figures, said so, else the transcript's latest calls (issue 39)", async () => {
    // Claude Code 2.1.328 sends `prompt_cache` with its hit ratio (0–1), misses and the last miss's causes.
    const withCache = JSON.stringify({
      ...JSON.parse(input({ context_window_size: 200_000, used_percentage: 62 })),
      prompt_cache: { warm: true, ttl: '5m', requests: 40, misses: 4, hit_ratio: 0.912, last_miss_cause: { causes: ['ttl_expired_5m'] } },
    });
    assert.equal(statusLine(withCache), 'ctx 62% · 124k/200k · 43k to auto-compact');
    assert.equal(
      statusLine(withCache, {}, { cache: true }),
      "ctx 62% · 124k/200k · 43k to auto-compact · cache 91% · 4 misses, last idle past 5 min (Claude Code's)",
    );
    assert.equal(
      statusLine(withCache, { CONTEXT_LENS_STATUSLINE_CACHE: '1' }),
      "ctx 62% · 124k/200k · 43k to auto-compact · cache 91% · 4 misses, last idle past 5 min (Claude Code's)",
    );
    // An older Claude Code: the transcript's tail, each response once (its lines share a message id).
    const path = join(tempDir('cl-statusline-cache-'), 's.jsonl');
    const at = (minute: number) => new Date(Date.UTC(2026, 0, 1, 10, minute)).toISOString();
    const call = (id: string, minute: number, read: number, write: number) =>
      JSON.stringify({
        type: 'assistant',
        uuid: `u-${id}`,
        timestamp: at(minute),
        message: {
          id,
          model: 'claude-sonnet-4-5',
          role: 'assistant',
          content: [],
          usage: { input_tokens: 5, cache_creation_input_tokens: write, cache_read_input_tokens: read, output_tokens: 10 },
        },
      });
    writeFileSync(path, [call('m1', 0, 0, 30_000), call('m1', 0, 0, 30_000), call('m2', 1, 30_000, 500), call('m3', 20, 0, 31_000)].join('\n') + '\n');
    const older = JSON.stringify({ ...JSON.parse(input({ context_window_size: 200_000, used_percentage: 62 })), transcript_path: path });
    assert.equal(await resolveStatusLine(older, {}, { cache: true }), 'ctx 62% · 124k/200k · 43k to auto-compact · cache 33% · 1 miss, last idle');
    assert.equal(await resolveStatusLine(older), 'ctx 62% · 124k/200k · 43k to auto-compact');
  });

  it('prints the neutral line for anything unreadable', () => {
    for (const stdin of ['', 'not json', 'null', '{}', input({ context_window_size: 0 }), input({ context_window_size: 200_000 })])
      assert.equal(statusLine(stdin), 'ctx —');
  });

  it('without a context_window, reads the newest main-conversation usage from transcript_path', async () => {
    const path = join(tempDir('cl-statusline-'), 's.jsonl');
    const response = (usage: Record<string, unknown>, sidechain = false): string =>
      JSON.stringify({ type: 'assistant', uuid: 'a', isSidechain: sidechain, message: { model: 'claude-sonnet-5-5', role: 'assistant', content: [], usage } });
    writeFileSync(
      path,
      [
        response({ input_tokens: 5, cache_read_input_tokens: 120_000, output_tokens: 10 }),
        response({ input_tokens: 999_999 }, true),
        response({ input_tokens: -5 }),
        '',
      ].join('\n'),
    );
    const stdin = JSON.stringify({ session_id: 's', transcript_path: path, model: { id: 'claude-sonnet-5-5' } });
    assert.equal(await resolveStatusLine(stdin), 'ctx 60% · 120k/200k · 47k to auto-compact');
    // The input's own window wins; a missing or unreadable transcript stays neutral.
    assert.equal(await resolveStatusLine(input({ context_window_size: 200_000, used_percentage: 10 })), 'ctx 10% · 20k/200k · 147k to auto-compact');
    assert.equal(await resolveStatusLine(JSON.stringify({ transcript_path: `${path}.gone` })), 'ctx —');
  });

  describe('as its own bundle', () => {
    let bin: string;
    before(async () => {
      bin = (await buildCliBundles(tempDir('cl-statusline-'))).statusline;
    });

    it('runs as a process, exits 0 on garbage, and bundles nothing heavy', async () => {
      const ok = spawnSync(process.execPath, [bin], { input: input({ context_window_size: 200_000, used_percentage: 10 }), encoding: 'utf8' });
      assert.deepEqual([ok.status, ok.stdout], [0, 'ctx 10% · 20k/200k · 147k to auto-compact\n']);
      const bad = spawnSync(process.execPath, [bin], { input: '{', encoding: 'utf8' });
      assert.deepEqual([bad.status, bad.stdout], [0, 'ctx —\n']);
      const { metafile } = await build({
        entryPoints: [join(__dirname, '..', '..', '..', 'src', 'cli', 'statuslineMain.ts')],
        bundle: true,
        platform: 'node',
        write: false,
        metafile: true,
        logLevel: 'silent',
      });
      const inputs = Object.keys(metafile.inputs);
      // The engine's cache misses (a few numbers a call, no prices) is the one piece of it a redraw may use.
      assert.ok(
        inputs.every((path) => !/node_modules|src\/engine\/(?!cache\/misses\.ts$)|zod|tiktoken/.test(path)),
        inputs.join(', '),
      );
    });
  });
});
