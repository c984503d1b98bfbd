// The host's Connect follows the viewed session's agent, for every agent the registry can connect,
// and the panel's line is that agent's: its name, its files, what it injects, what it still needs.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { agentWithoutAsking, followedAgent } from '../../../../src/host/connect/followedAgent';
import { hooksOf } from '../../../../src/host/connect/connectionLine';
import { AGENTS } from '../../../../src/sessions/agents';
import { connectableAgents } from '../../../../src/sessions/connectable';
import type { SessionInfo } from '../../../../src/sessions/types';

const connectable = connectableAgents();
const session = (agent: string): SessionInfo =>
  ({ id: 's1', agent, path: '/x/s1', projectDir: '/x', cwd: '/w', title: 't', model: null }) as unknown as SessionInfo;

describe('the agent Connect follows', () => {
  it('is the viewed session’s, for each agent that can be connected, and none for the others', () => {
    assert.ok(connectable.length >= 4, 'Claude Code, Codex CLI, Gemini CLI and OpenCode can be connected');
    for (const adapter of AGENTS) {
      const followed = followedAgent(adapter, connectable);
      assert.equal(followed?.adapter.id, adapter.connection ? adapter.id : undefined, adapter.id);
    }
    assert.equal(followedAgent(null, connectable), undefined);
  });

  it('acts without asking on the followed agent, or the only one; otherwise the person picks', () => {
    const [first, second] = connectable;
    assert.ok(first && second);
    assert.equal(agentWithoutAsking(second, connectable), second);
    assert.equal(agentWithoutAsking(undefined, connectable), null);
    assert.equal(agentWithoutAsking(undefined, [first]), first);
    assert.equal(agentWithoutAsking(undefined, []), null);
  });
});

describe("the panel's connection line", () => {
  it("names each agent's own files and what it injects, from the state read for that agent", () => {
    for (const { adapter, connection } of connectable) {
      const line = hooksOf(adapter, session(adapter.id), { agentId: adapter.id, state: 'disconnected' });
      assert.deepEqual(line, {
        agent: adapter.name,
        ...(connection.installs !== undefined ? { installs: connection.installs } : {}),
        state: 'disconnected',
        where: connection.watchFiles.join(' and '),
        detail: connection.describe.connect,
        caveat: null,
      });
    }
  });

  it('calls what Connect installs by its name: a plugin for OpenCode, hooks for the others', () => {
    const named = connectable.map(
      ({ adapter }) => `${adapter.id}: ${hooksOf(adapter, session(adapter.id), { agentId: adapter.id, state: 'connected' })?.installs ?? 'hooks'}`,
    );
    assert.ok(named.includes('opencode: plugin'), named.join(', '));
    assert.ok(named.includes('codex: hooks') && named.includes('gemini: hooks'), named.join(', '));
  });

  it('never shows a state read for another agent (the previous session’s)', () => {
    const [first, second] = connectable;
    assert.ok(first && second);
    assert.equal(hooksOf(second.adapter, session(second.adapter.id), { agentId: first.adapter.id, state: 'connected' }), null);
    assert.equal(hooksOf(second.adapter, session(second.adapter.id), null), null);
  });

  it('says, once connected, what the agent still needs before it runs the hooks (Codex: trust)', () => {
    const trusting = connectable.filter(({ connection }) => connection.caveat !== undefined);
    assert.ok(
      trusting.some(({ connection }) => /trust/.test(connection.caveat ?? '')),
      'an agent that needs trust says so',
    );
    for (const { adapter, connection } of trusting) {
      for (const state of ['connected', 'partial'] as const)
        assert.equal(hooksOf(adapter, session(adapter.id), { agentId: adapter.id, state })?.caveat, connection.caveat);
    }
  });

  it('names the resume command for an agent that cannot be connected', () => {
    const other = AGENTS.find((adapter) => adapter.connection === undefined);
    if (other === undefined) return;
    assert.equal(hooksOf(other, session(other.id), null)?.state, 'none');
  });
});
