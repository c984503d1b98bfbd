import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { agentAutoCompactTokens, percentOverrideFromEnv, reservedOutputTokens, resolveWindow } from '../../../../src/sessions/claude-code/window';

describe('resolveWindow', () => {
  it('is 200k by default, 1M for [1m] ids, the 1M beta, or an observed request above 200k', () => {
    assert.deepEqual(resolveWindow({ model: 'claude-sonnet-5-5' }), { tokens: 200_000, source: 'model' });
    assert.deepEqual(resolveWindow({ model: null }), { tokens: 200_000, source: 'default' });
    assert.equal(resolveWindow({ model: 'claude-sonnet-5-5[1m]' }).tokens, 1_000_000);
    assert.equal(resolveWindow({ model: 'claude-sonnet-5-5', betas: ['context-1m-2025-08-07'] }).tokens, 1_000_000);
    assert.equal(resolveWindow({ model: 'claude-sonnet-5-5', observedTokens: 250_000 }).tokens, 1_000_000);
  });

  it('takes the user override over everything', () => {
    assert.deepEqual(resolveWindow({ model: 'claude-sonnet-5-5[1m]', overrideTokens: 128_000 }), { tokens: 128_000, source: 'override' });
  });
});

describe("Claude Code's auto-compact point", () => {
  it('is window − min(max output, 20k) − 13k: 167k of 200k', () => {
    assert.equal(agentAutoCompactTokens(200_000), 167_000);
    assert.equal(agentAutoCompactTokens(200_000, { maxOutputTokens: 8_000 }), 179_000);
    assert.equal(agentAutoCompactTokens(1_000_000), 967_000);
  });

  it('can only be lowered by CLAUDE_AUTOCOMPACT_PCT_OVERRIDE', () => {
    assert.equal(agentAutoCompactTokens(200_000, { percentOverride: 50 }), 90_000);
    assert.equal(agentAutoCompactTokens(200_000, { percentOverride: 99 }), 167_000);
    assert.equal(percentOverrideFromEnv({ CLAUDE_AUTOCOMPACT_PCT_OVERRIDE: '50' }), 50);
    assert.equal(percentOverrideFromEnv({ CLAUDE_AUTOCOMPACT_PCT_OVERRIDE: '150' }), undefined);
    assert.equal(percentOverrideFromEnv({ CLAUDE_AUTOCOMPACT_PCT_OVERRIDE: 'x' }), undefined);
  });

  it('is 0 (none) for a window smaller than the reserves, never negative', () => {
    assert.equal(agentAutoCompactTokens(20_000), 0);
    assert.equal(agentAutoCompactTokens(20_000, { percentOverride: 50 }), 0);
  });
});

describe('reservedOutputTokens', () => {
  it('is what Claude Code keeps free for output: window − auto-compact point − 13k, never negative', () => {
    assert.equal(reservedOutputTokens({ windowTokens: 200_000, agentAutoCompactTokens: 167_000 }), 20_000);
    assert.equal(reservedOutputTokens({ windowTokens: 10_000, agentAutoCompactTokens: 0 }), 0);
  });
});
