// The panel's state holds to the webview's contract for any fill the adapters report: the webview
// refuses what breaks it, and a refused patch once left the panel on "reading the session…" for good
// (a Gemini CLI session under a 44,000-token window override: Gemini compresses at 524,288 tokens,
// 1,191 % of that window, above the contract's 100 %).
import '../../../support/vscodeStub';
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { panelStateOf, type PanelSources } from '../../../../src/host/panel/panelState';
import { readSettings, type Settings } from '../../../../src/host/settings';
import { hostMessageSchema } from '../../../../src/protocol/messages';
import type { FillSnapshot } from '../../../../src/sessions/types';
import type { SessionView } from '../../../../src/host/sessions/SessionService';

function fillOf(patch: Partial<FillSnapshot>): FillSnapshot {
  return {
    usedTokens: 20_000,
    source: 'usage',
    windowTokens: 44_000,
    windowSource: 'override',
    agentAutoCompactTokens: 524_288,
    model: 'gemini-2.5-pro',
    timestamp: null,
    outputTokensPending: 0,
    pendingTokens: 0,
    usage: null,
    accountedThrough: { uuid: null, endOffset: 0 },
    compactedSinceUsage: false,
    ...patch,
  };
}

function sourcesOf(fill: FillSnapshot | null, settings: Settings = readSettings()): PanelSources {
  const view: SessionView = { session: null, handle: null, fill, compactions: [], diagnostics: [], forks: [], searched: true };
  return {
    settings,
    view,
    model: { snapshot: null, loading: false, cost: null, timeline: () => [] } as unknown as PanelSources['model'],
    history: { of: () => [] },
    hookEvents: [],
    proxyEvents: [],
    connection: null,
    hasWorkspace: true,
  };
}

describe('panelStateOf', () => {
  it("leaves out an agent's point beyond the window shown, and says where it is", () => {
    const state = panelStateOf(sourcesOf(fillOf({})));
    assert.equal(state.thresholds.agentAutoCompactPercent, null);
    assert.ok(
      state.thresholds.notes.some((note) => note.includes('524,288 tokens, beyond this 44,000-token window (set in contextLens.window.overrideTokens)')),
      state.thresholds.notes.join('\n'),
    );
    assert.equal(hostMessageSchema.safeParse({ type: 'state', state }).success, true);
  });

  it("draws an agent's point inside the window, without a note about it", () => {
    const state = panelStateOf(sourcesOf(fillOf({ windowTokens: 1_048_576, windowSource: 'model' })));
    assert.equal(state.thresholds.agentAutoCompactPercent, 50);
    assert.ok(!state.thresholds.notes.some((note) => note.includes('beyond this')));
  });

  it('holds to the contract for any fill an adapter reports and any trigger settings', () => {
    const tokens = fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 3_000_000 }));
    fc.assert(
      fc.property(
        fc.record({
          usedTokens: tokens,
          // The port promises a window (the contract suite checks every adapter): at least one token.
          windowTokens: fc.integer({ min: 1, max: 3_000_000 }),
          agentAutoCompactTokens: tokens,
          pendingTokens: fc.integer({ min: 0, max: 100_000 }),
          source: fc.constantFrom('usage' as const, 'estimate' as const),
          windowSource: fc.constantFrom('model' as const, 'override' as const, 'default' as const),
        }),
        fc.integer({ min: 1, max: 100 }),
        fc.integer({ min: 1, max: 99 }),
        fc.boolean(),
        (fill, triggerPercent, targetPercent, triggerSet) => {
          const settings = { ...readSettings(), triggerPercent, triggerSet, targetPercent: Math.min(targetPercent, triggerPercent) };
          const state = panelStateOf(sourcesOf(fillOf(fill), settings));
          const parsed = hostMessageSchema.safeParse({ type: 'state', state });
          assert.ok(parsed.success, `${JSON.stringify(fill)}: ${parsed.error?.message ?? ''}`);
        },
      ),
      { numRuns: 400 },
    );
  });
});
