// Which live-proxy requests are the followed session's, for agents whose requests name their
// session (Claude Code, Codex) and those whose requests do not (Gemini CLI, OpenCode): the rule is
// the same for every agent, and a request it cannot place is reported as unmatched, never guessed.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { attributeProxyEvents } from '../../../../src/host/proxy/proxyAttribution';
import { liveProxyOf } from '../../../../src/host/proxy/liveProxySummary';
import { wireItemsOf } from '../../../../src/host/proxy/wireItems';
import { AGENTS, adapterOf } from '../../../../src/sessions/agents';
import type { ProxyEvent } from '../../../../src/proxy/events';

let clock = Date.parse('2026-11-28T05:00:00.000Z');

function event(overrides: Partial<ProxyEvent>): ProxyEvent {
  clock += 1_000;
  return {
    v: 1,
    time: new Date(clock).toISOString(),
    session: '',
    agentSession: null,
    toolCall: null,
    method: 'POST',
    path: '/v1beta/models/gemini-2.5-pro:streamGenerateContent',
    action: 'unchanged',
    reason: null,
    model: 'gemini-2.5-pro',
    stream: true,
    agentTokens: 3_000,
    sentTokens: 3_000,
    stickyEdits: 0,
    newEdits: [],
    restored: [],
    addedMs: 0.4,
    status: 200,
    usage: { inputTokens: 100, outputTokens: 40, cacheReadTokens: 2_800, cacheCreationTokens: 0 },
    error: null,
    ...overrides,
  };
}

const edit = (toolUseId: string) => ({ toolUseId, tier: 'supersede' as const, ref: `ctx-lens:${toolUseId.slice(-8)}`, tokensBefore: 1_200, tokensAfter: 30 });
/** A followed context holding these tool calls (call and result items, as the engine reads a transcript). */
const holding = (sessionId: string, ...ids: string[]) => ({
  sessionId,
  items: ids.flatMap((toolUseId, index) => [
    { id: index * 2 + 3, kind: 'tool_use', toolUseId },
    { id: index * 2 + 4, kind: 'tool_result', toolUseId },
  ]),
});

// Gemini CLI names each call `<tool>-<ms>-<random>`; OpenCode keeps the model's `call_…` ids.
const GEMINI_A = ['read_file-1764306012345-8a1f3c9e0b2d4', 'read_file-1764306019876-1c7e5a2b9f3d1'];
const GEMINI_B = ['run_shell_command-1764306044321-5d0e9a7c3b1f2'];
const CODEX = '019ec8a1-7b2c-7d40-9e15-3a6f0c2d8b71';

describe('live proxy requests attributed to the followed session', () => {
  it('a session that names no session in its requests is found by the tool calls its transcript holds; its first request joins through the conversation', () => {
    const events = [
      // Gemini session A: its first prompt carries no tool call yet, the proxy's conversation key joins it.
      event({ session: 'conv-a', toolCall: null }),
      event({ session: '', toolCall: GEMINI_A[0] }),
      // Session B, another Gemini CLI in the same folder, interleaved.
      event({ session: 'conv-b', toolCall: GEMINI_B[0], agentTokens: 9 }),
      event({ session: 'conv-a', toolCall: GEMINI_A[1], action: 'edited', agentTokens: 30_000, sentTokens: 28_830, newEdits: [edit(GEMINI_A[0]!)] }),
    ];
    const a = attributeProxyEvents(events, holding('chat-a', ...GEMINI_A));
    assert.deepEqual(
      a.calls.map((call) => call.toolCall),
      [null, GEMINI_A[0], GEMINI_A[1]],
    );
    assert.equal(a.matchedBy, 'tool-call');
    assert.deepEqual(a.unmatched, []);
    const b = attributeProxyEvents(events, holding('chat-b', ...GEMINI_B));
    assert.deepEqual(
      b.calls.map((call) => call.agentTokens),
      [9],
    );
    // A's last request came after B's and matched nothing of B: said, not guessed.
    assert.equal(b.unmatched.length, 1);
    const live = liveProxyOf(events, holding('chat-a', ...GEMINI_A));
    assert.equal(live?.agentTokens, 30_000);
    assert.equal(live?.matchedBy, 'tool-call');
    assert.deepEqual(live?.items, [{ id: 4, fate: 'stubbed', tokensSent: 30, ref: edit(GEMINI_A[0]!).ref }]);
  });

  it('a request naming its session belongs to that session only, whatever tool call it carries', () => {
    const other = '019ec8a1-0000-7d40-9e15-3a6f0c2d8b71';
    const events = [
      event({ session: 'c1', agentSession: CODEX, toolCall: 'call_Ab3dE5fG7hJ9kL1mN3pQ5rS7' }),
      // Another Codex session that happens to carry an id this one holds is still the other's.
      event({ session: 'c2', agentSession: other, toolCall: 'call_Ab3dE5fG7hJ9kL1mN3pQ5rS7' }),
    ];
    const mine = attributeProxyEvents(events, holding(CODEX, 'call_Ab3dE5fG7hJ9kL1mN3pQ5rS7'));
    assert.deepEqual(
      mine.calls.map((call) => call.agentSession),
      [CODEX],
    );
    assert.equal(mine.matchedBy, 'session');
    // Requests naming another session are not "unmatched": they are known to be someone else's.
    assert.deepEqual(mine.unmatched, []);
  });

  it('says "no match" when the newest requests name no session and carry none of its tool calls, instead of showing them', () => {
    const events = [
      event({ session: '', toolCall: null, path: '/v1/chat/completions' }),
      event({ session: 'conv-x', toolCall: 'call_9zYxWvUtSrQpOnMlKjIhGf', path: '/v1/chat/completions' }),
      event({ session: '', action: 'passthrough', path: '/v1/models' }),
    ];
    const live = liveProxyOf(events, holding('ses_4f1c2a9e7ffe0Jq2kP8wLmZx3b', 'call_0aBcDeFgHiJkLmNoPqRsTu'));
    assert.equal(live?.requests, 0);
    assert.deepEqual(live?.unmatched, { requests: 2, at: events[1]!.time });
    assert.deepEqual(live?.items, []);
    // Nothing through the proxy at all: no line.
    assert.equal(liveProxyOf([event({ action: 'passthrough' })], holding('s', 'x')), null);
  });

  it("a Claude Code session keeps its own line while another agent's unnamed requests pass after it, and counts them", () => {
    const claude = '6f1d2c3b-4a59-4e8f-9d7c-1b2a3c4d5e6f';
    const events = [
      event({ session: 'cc', agentSession: claude, path: '/v1/messages', agentTokens: 80_000, sentTokens: 80_000 }),
      event({ session: 'oc', toolCall: 'call_QwErTy0123456789AbCdEf', path: '/v1/chat/completions' }),
    ];
    const live = liveProxyOf(events, holding(claude, 'toolu_01A2b3C4d5E6f7G8h9J0kLmN'));
    assert.equal(live?.agentTokens, 80_000);
    assert.equal(live?.requests, 1);
    assert.deepEqual(live?.unmatched, { requests: 1, at: events[1]!.time });
  });

  it('with no session followed every conversation request is shown, and nothing is called unmatched', () => {
    const events = [event({ session: 'g', toolCall: GEMINI_B[0] }), event({ session: 'o' })];
    const all = attributeProxyEvents(events, { sessionId: null, items: [] });
    assert.equal(all.calls.length, 2);
    assert.deepEqual(all.unmatched, []);
  });
  it("matches a Gemini CLI chat, which records `<tool>__<id>` while its requests carry `<id>`, through the adapter's wire ids", () => {
    // As Gemini CLI 0.61 wrote them: the model's ids prefixed with the tool's name; an MCP tool's name holds `__` itself.
    const recorded = [
      { id: 3, kind: 'tool_use', toolUseId: 'read_file__call_Zx81', toolName: 'read_file' },
      { id: 4, kind: 'tool_result', toolUseId: 'read_file__call_Zx81', toolName: 'read_file' },
      { id: 5, kind: 'tool_use', toolUseId: 'tracker__open__call_Qa02', toolName: 'tracker__open' },
      { id: 6, kind: 'tool_result', toolUseId: 'tracker__open__call_Qa02', toolName: 'tracker__open' },
      { id: 7, kind: 'tool_result', toolUseId: 'generic_tool__synth_p1_1764306012345_4' },
    ];
    const gemini = adapterOf('gemini');
    assert.deepEqual(
      wireItemsOf(gemini, recorded).map((item) => item.toolUseId),
      ['call_Zx81', 'call_Zx81', 'call_Qa02', 'call_Qa02', 'synth_p1_1764306012345_4'],
    );
    const events = [event({ session: 'g1', toolCall: 'call_Qa02', action: 'edited', agentTokens: 24_000, sentTokens: 20_000, newEdits: [edit('call_Zx81')] })];
    // Read with the recorded ids, nothing matches: the line would say "no match".
    assert.equal(liveProxyOf(events, { sessionId: 'chat-g', items: recorded })?.requests, 0);
    const live = liveProxyOf(events, { sessionId: 'chat-g', items: wireItemsOf(gemini, recorded) });
    assert.equal(live?.requests, 1);
    assert.deepEqual(live?.items, [{ id: 4, fate: 'stubbed', tokensSent: 30, ref: edit('call_Zx81').ref }]);
    // Every other agent sends the ids it records: its items go through as they are.
    for (const adapter of AGENTS.filter((agent) => agent.liveProxy?.wireCallId === undefined)) assert.equal(wireItemsOf(adapter, recorded), recorded);
  });
});
