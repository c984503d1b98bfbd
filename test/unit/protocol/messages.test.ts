import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { parseHostMessage, parseWebviewMessage, REFUSED_DETAIL_MAX, salvageStateMessage, type PanelState } from '../../../src/protocol/messages';

const state: PanelState = {
  session: {
    id: 'abc',
    title: 'Fix the retry',
    agent: 'claude-code',
    agentLabel: { name: 'Claude Code', pointSetBy: 'the CLAUDE_AUTOCOMPACT_PCT_OVERRIDE environment variable' },
    model: 'claude-opus-4-5',
    path: '/tmp/abc.jsonl',
    live: true,
  },
  fill: { usedTokens: 124_310, windowTokens: 200_000, source: 'usage' },
  thresholds: { triggerPercent: 85, targetPercent: 60, safetyNetPercent: 95, agentAutoCompactPercent: 83.5, notes: [] },
  breakdown: [{ category: 'tool_result', tokens: 88_000 }],
  reservedOutputTokens: 20_000,
  timeline: [{ at: null, usedTokens: 124_310, event: null }],
  history: [],
  empty: null,
  diagnostics: [],
  hooks: { agent: 'Claude Code', state: 'connected', where: '.claude/settings.local.json' },
  contextLoading: false,
  liveProxy: null,
  cost: null,
};

describe('host → webview messages', () => {
  it('accepts a well-formed state', () => {
    const parsed = parseHostMessage({ type: 'state', state });
    assert.equal(parsed.ok, true);
  });

  it('rejects a state with a negative token count, and says where', () => {
    const parsed = parseHostMessage({ type: 'state', state: { ...state, fill: { ...state.fill!, usedTokens: -1 } } });
    assert.equal(parsed.ok, false);
    if (!parsed.ok) assert.match(parsed.error, /usedTokens/);
  });

  it("carries the agent's hooks state, null without a workspace folder, and nothing else", () => {
    for (const hooks of ['none', 'connected', 'partial', 'disconnected'].map((kind) => ({ ...state.hooks!, state: kind })).concat([null as never]))
      assert.equal(parseHostMessage({ type: 'state', state: { ...state, hooks } }).ok, true, JSON.stringify(hooks));
    const unknown = parseHostMessage({ type: 'state', state: { ...state, hooks: { ...state.hooks!, state: 'yes' } } });
    assert.equal(unknown.ok, false);
    if (!unknown.ok) assert.match(unknown.error, /hooks/);
    const { hooks: _omitted, ...withoutField } = state;
    assert.equal(parseHostMessage({ type: 'state', state: withoutField }).ok, false, 'the field is required (null, not missing)');
  });
});

describe('a state or patch that breaks the contract', () => {
  it('keeps the parts that hold to it and names the refused one, for a patch and a whole state', () => {
    const bad = { fill: { ...state.fill!, usedTokens: 123 }, thresholds: { ...state.thresholds, agentAutoCompactPercent: 1191.6 } };
    for (const message of [
      { type: 'statePatch', patch: bad },
      { type: 'state', state: { ...state, ...bad } },
    ]) {
      assert.equal(parseHostMessage(message).ok, false);
      const salvaged = salvageStateMessage(message);
      assert.ok(salvaged);
      assert.equal(salvaged.patch.fill?.usedTokens, 123, 'the fill still shows');
      assert.equal('thresholds' in salvaged.patch, false);
      assert.equal(salvaged.refused.length, 1);
      assert.match(salvaged.refused[0]!, /^thresholds: .*agentAutoCompactPercent/s);
    }
  });

  it('salvages nothing of another message or a body that is not an object, and drops unknown parts', () => {
    assert.equal(salvageStateMessage({ type: 'plan', plan: null }), null);
    assert.equal(salvageStateMessage({ type: 'statePatch', patch: [1] }), null);
    assert.equal(salvageStateMessage('state'), null);
    assert.deepEqual(salvageStateMessage({ type: 'statePatch', patch: { later: 1, contextLoading: true } }), { patch: { contextLoading: true }, refused: [] });
  });

  it('lets the webview tell the host what it refused, within a bound', () => {
    assert.equal(parseWebviewMessage({ type: 'refused', detail: 'thresholds: too big' }).ok, true);
    assert.equal(parseWebviewMessage({ type: 'refused', detail: 'x'.repeat(REFUSED_DETAIL_MAX + 1) }).ok, false);
  });
});

describe('webview → host messages (untrusted)', () => {
  it('accepts ready and whitelisted commands', () => {
    assert.equal(parseWebviewMessage({ type: 'ready' }).ok, true);
    assert.equal(parseWebviewMessage({ type: 'command', command: 'openTranscript' }).ok, true);
    assert.equal(parseWebviewMessage({ type: 'command', command: 'connectAgent' }).ok, true);
    assert.equal(parseWebviewMessage({ type: 'command', command: 'disconnectAgent' }).ok, true);
  });

  it('rejects commands outside the whitelist', () => {
    const parsed = parseWebviewMessage({ type: 'command', command: 'workbench.action.terminal.sendSequence' });
    assert.equal(parsed.ok, false);
  });

  it('never throws on arbitrary input', () => {
    fc.assert(
      fc.property(fc.anything(), (raw) => {
        const parsed = parseWebviewMessage(raw);
        return parsed.ok === false || (typeof raw === 'object' && raw !== null);
      }),
    );
  });
});
