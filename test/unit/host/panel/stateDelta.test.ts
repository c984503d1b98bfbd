// Only what changed goes to the webviews, and applying the patches to the first state always gives
// the newest one back.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { StateDelta } from '../../../../src/host/panel/stateDelta';
import { parseHostMessage, type PanelState } from '../../../../src/protocol/messages';

const initial: PanelState = {
  session: null,
  fill: { usedTokens: 1_000, windowTokens: 200_000, source: 'usage' },
  thresholds: { triggerPercent: 85, targetPercent: 60, safetyNetPercent: 95, agentAutoCompactPercent: 83.5, notes: [] },
  breakdown: [],
  reservedOutputTokens: 20_000,
  timeline: Array.from({ length: 2_000 }, (_, index) => ({ at: null, usedTokens: index, event: null })),
  history: [],
  empty: null,
  diagnostics: [],
  hooks: { agent: 'Claude Code', state: 'disconnected', where: '.claude/settings.local.json' },
  contextLoading: false,
  liveProxy: null,
  cost: null,
};

describe('StateDelta', () => {
  it('sends only the parts that changed, nothing when nothing did, and a patch the webview accepts', () => {
    const delta = new StateDelta(initial);
    assert.equal(delta.patch(structuredClone(initial)), null);
    const patch = delta.patch({ ...initial, fill: { ...initial.fill!, usedTokens: 2_000 } });
    assert.deepEqual(patch, { fill: { usedTokens: 2_000, windowTokens: 200_000, source: 'usage' } });
    assert.equal(parseHostMessage({ type: 'statePatch', patch }).ok, true);
    assert.ok(JSON.stringify(patch).length < JSON.stringify(initial).length / 50, 'the timeline is not resent');
  });

  it('patches applied in order rebuild every newest state', () => {
    const change = fc.record({
      used: fc.integer({ min: 0, max: 200_000 }),
      hooks: fc.constantFrom('connected' as const, 'partial' as const, 'disconnected' as const),
      diagnostics: fc.array(fc.string({ maxLength: 8 }), { maxLength: 2 }),
    });
    fc.assert(
      fc.property(fc.array(change, { maxLength: 20 }), (changes) => {
        const delta = new StateDelta(initial);
        let webview: PanelState = structuredClone(initial);
        for (const { used, hooks, diagnostics } of changes) {
          const next: PanelState = { ...initial, fill: { ...initial.fill!, usedTokens: used }, hooks: { ...initial.hooks!, state: hooks }, diagnostics };
          webview = { ...webview, ...(delta.patch(next) ?? {}) };
          assert.deepEqual(webview, next);
        }
      }),
      { numRuns: 100, seed: 5 },
    );
  });
});
