import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { liveInstructionsOf } from '../../../../src/host/proxy/liveInstructions';

const items = [
  { id: 0, kind: 'system' },
  { id: 1, kind: 'user' },
  { id: 2, kind: 'tool_use', toolUseId: 'toolu_a' },
  { id: 3, kind: 'tool_result', toolUseId: 'toolu_a' },
  { id: 4, kind: 'tool_use', toolUseId: 'toolu_b' },
  { id: 5, kind: 'tool_result', toolUseId: 'toolu_b' },
];

describe("the proxy's instructions from the panel", () => {
  it("carry the gauge's window and thresholds, the focus and pins, summaries off, and the choices as tool_use ids", () => {
    const instructions = liveInstructionsOf({
      settings: { engine: { targetPercent: 60, summary: { enabled: true }, preserve: { pinned: ['never touch prod'] } }, compactionFocus: 'the retry fix' },
      thresholds: { triggerPercent: 50, targetPercent: 40 },
      windowTokens: 80_000,
      choices: { keep: [1, 3], drop: [4], pins: ['keep the old API'] },
      items,
    });
    assert.equal(instructions.windowTokens, 80_000);
    assert.equal(instructions.triggerPercent, 50);
    assert.equal(instructions.engine?.targetPercent, 40);
    assert.equal(instructions.engine?.focus, 'the retry fix');
    assert.equal(instructions.engine?.summary?.enabled, false);
    assert.deepEqual(instructions.engine?.preserve?.pinned, ['never touch prod', 'keep the old API']);
    // A message (#1) cannot be kept or dropped live: only tool calls and their results.
    assert.deepEqual(instructions.keep, ['toolu_a']);
    assert.deepEqual(instructions.drop, ['toolu_b']);
    // Every call of the context once, in order: how a proxy places a request that names no session.
    assert.deepEqual(instructions.toolCalls, ['toolu_a', 'toolu_b']);
  });

  it('mask a secret a pinned sentence or the focus quoted: they are written to a file', () => {
    const key = 'sk-ant-api03-' + 'a'.repeat(40);
    const instructions = liveInstructionsOf({
      settings: { engine: {}, compactionFocus: `the key ${key}` },
      thresholds: { triggerPercent: 75, targetPercent: 60 },
      windowTokens: null,
      choices: { keep: [], drop: [], pins: [`use ${key}`] },
      items: [],
    });
    assert.ok(!JSON.stringify(instructions).includes(key));
    assert.match(instructions.engine?.preserve?.pinned?.[0] ?? '', /^use /);
  });

  it('without a followed session the proxy keeps its own window', () => {
    const instructions = liveInstructionsOf({
      settings: { engine: {}, compactionFocus: '' },
      thresholds: { triggerPercent: 75, targetPercent: 60 },
      windowTokens: null,
      choices: { keep: [], drop: [], pins: [] },
      items: [],
    });
    assert.equal('windowTokens' in instructions, false);
    assert.deepEqual([instructions.keep, instructions.drop], [[], []]);
  });
});
