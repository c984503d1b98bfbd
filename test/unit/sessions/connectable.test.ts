// Which agent Connect, `connect`, `mcp` and `hook` act on: the one named, or the default one (Claude
// Code); never an agent without a connection.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AGENTS } from '../../../src/sessions/agents';
import { connectableAgent, connectableAgents } from '../../../src/sessions/connectable';

describe('connectable agents', () => {
  it('are the registered adapters with a connection, in the registry order', () => {
    assert.deepEqual(
      connectableAgents().map(({ adapter }) => adapter.id),
      AGENTS.filter((adapter) => adapter.connection).map((adapter) => adapter.id),
    );
    assert.ok(connectableAgents().some(({ adapter }) => adapter.id === 'claude-code'));
  });

  it('the default is Claude Code (its commands predate --agent); a named one must have a connection', () => {
    const chosen = connectableAgent();
    assert.equal(chosen.ok && chosen.value.adapter.id, 'claude-code');
    const claude = connectableAgent('claude-code');
    assert.ok(claude.ok && claude.value.connection === claude.value.adapter.connection);
    for (const id of ['codex', 'gemini', 'opencode']) assert.ok(connectableAgent(id).ok, id);
    const unknown = connectableAgent('nobody');
    assert.ok(!unknown.ok && /'nobody' cannot be connected/.test(unknown.error.message));
  });

  it("Claude Code's connection watches its settings file and runs both hooks", () => {
    const claude = connectableAgent('claude-code');
    assert.ok(claude.ok);
    assert.deepEqual(claude.value.connection.watchFiles, ['.claude/settings.local.json']);
    assert.deepEqual(claude.value.connection.hooks?.kinds, ['pre-compact', 'session-start']);
    assert.equal(claude.value.connection.mcp?.serverName, 'context-lens');
  });
});
