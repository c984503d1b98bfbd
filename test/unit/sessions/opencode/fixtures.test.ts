// The recorded OpenCode sessions (real CLI 1.18.33, offline) read through the adapter: listing and
// subagents, the live context after OpenCode's own compaction, the exact fill, calls and cost rows.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { opencodeAdapter } from '../../../../src/sessions/opencode/adapter';
import { parseSessionPath } from '../../../../src/sessions/common/opencodeFamily/paths';
import type { SessionLocations } from '../../../../src/sessions/port';
import type { SessionInfo } from '../../../../src/sessions/types';
import { unpackFixture } from '../../../support/opencodeWal';
import { findWorkspaceSession } from '../../../../src/sessions/handle/defaults';

const temp = mkdtempSync(join(tmpdir(), 'cl-opencode-fixtures-'));
after(() => rmSync(temp, { recursive: true, force: true }));

function database(name: string): { db: string; where: SessionLocations } {
  const db = join(temp, `${name}.db`);
  unpackFixture(name, db);
  return { db, where: { homes: { opencode: [db] } } as SessionLocations };
}

async function only(name: string): Promise<SessionInfo[]> {
  const { where } = database(name);
  const listed = await opencodeAdapter.listSessions(where);
  assert.ok(listed.ok, JSON.stringify(listed));
  return listed.value;
}

describe('OpenCode recorded sessions', () => {
  it('lists a session under a path of ours that the adapter owns and reads back', async () => {
    const [session] = await only('plain');
    assert.ok(session);
    assert.equal(session.agent, 'opencode');
    assert.ok(await opencodeAdapter.owns(session.path));
    assert.equal(await opencodeAdapter.owns(join(temp, 'plain.db')), false);
    assert.equal(parseSessionPath(session.path)?.sessionId, session.id);
    // Said in words where a file path would be shown (the panel's header, inspect): not our `<db>#<id>` key.
    assert.equal(session.location, `session ${session.id} in ${parseSessionPath(session.path)?.db}`);
    const info = await opencodeAdapter.readSessionInfo(session.path);
    assert.ok(info.ok);
    assert.deepEqual(info.value, session);
    assert.equal(session.model, 'fake/fake-model');
    assert.match(session.cwd ?? '', /workspace$/);
  });

  it('finds the workspace by the session directory, and nothing for another folder', async () => {
    const [session] = await only('plain');
    const { where } = database('plain');
    const found = await findWorkspaceSession(opencodeAdapter, session?.cwd ?? '', where);
    assert.ok(found.ok);
    assert.equal(found.value?.id, session?.id);
    const none = await findWorkspaceSession(opencodeAdapter, temp, where);
    assert.ok(none.ok);
    assert.equal(none.value, null);
  });

  it('has the exact fill of the last call: input + cache.read + cache.write, its output pending', async () => {
    const [session] = await only('plain');
    assert.ok(session);
    const live = await opencodeAdapter.readLiveContext(session);
    assert.ok(live.ok);
    // The second call: input 26, cache.read 7337, output 5 (the stand-in's usage of that request).
    assert.equal(live.value.fill.usedTokens, 7363);
    assert.equal(live.value.fill.source, 'usage');
    assert.equal(live.value.fill.outputTokensPending, 5);
    assert.deepEqual(
      live.value.messages.map((message) => message.role),
      ['user', 'assistant', 'user', 'assistant'],
    );
    assert.equal(live.value.calls.length, 2);
  });

  it('reads tool calls and results with OpenCode tool names', async () => {
    const [session] = await only('tools');
    assert.ok(session);
    const live = await opencodeAdapter.readLiveContext(session);
    assert.ok(live.ok);
    const uses = live.value.messages.flatMap((message) => message.content.filter((block) => block.type === 'tool_use').map((block) => block.name));
    assert.deepEqual(uses, ['read', 'bash', 'read', 'edit']);
    const results = live.value.messages.flatMap((message) => message.content.filter((block) => block.type === 'tool_result'));
    assert.equal(results.length, 4);
    assert.match(String(results[0]?.content), /The build uses esbuild/);
    for (const name of uses) assert.ok(opencodeAdapter.tools.categories[String(name)]);
    assert.equal(live.value.calls.length, 5);
  });

  it("starts the live context at OpenCode's own compaction, and reports it", async () => {
    const [session] = await only('compaction');
    assert.ok(session);
    const live = await opencodeAdapter.readLiveContext(session);
    assert.ok(live.ok);
    const first = live.value.messages[0];
    assert.deepEqual(first?.content, [{ type: 'text', text: 'What did we do so far?' }]);
    assert.equal(live.value.entries[1]?.kind, 'compact-summary');
    assert.equal(live.value.compactions.length, 1);
    const [event] = live.value.compactions;
    assert.equal(event?.trigger, 'auto');
    assert.match(event?.summary ?? '', /## Goal/);
    // The call before it: 2373 + 7340 cached, 12 out; past the 9000 OpenCode computed for that model.
    assert.equal(event?.preTokens, 9725);
    // OpenCode records no size after it: the first call after the summary measured it (was "9,725 → ?").
    assert.equal(event?.postTokens, 7397);
    assert.equal(live.value.fill.usedTokens, 25 + 7397);
    // Every call of the session is paid for, the summariser's too.
    const calls = await opencodeAdapter.readSessionCalls(session);
    assert.ok(calls.ok);
    assert.equal(calls.value.calls.length, 5);
  });

  it('reads the compaction point from the config the run had', async () => {
    const [session] = await only('compaction');
    assert.ok(session);
    const env = {
      HOME: temp,
      OPENCODE_CONFIG_CONTENT: JSON.stringify({ provider: { fake: { models: { 'fake-model': { limit: { context: 10000, output: 1000 } } } } } }),
    };
    const live = await opencodeAdapter.readLiveContext(session, { env });
    assert.ok(live.ok);
    assert.equal(live.value.fill.windowTokens, 10000);
    assert.equal(live.value.fill.windowSource, 'model');
    assert.equal(live.value.fill.agentAutoCompactTokens, 9000);
    const defaults = await opencodeAdapter.readLiveContext(session, { env: { HOME: temp } });
    assert.ok(defaults.ok);
    assert.equal(defaults.value.fill.windowSource, 'default');
  });

  it('shows a child session as a subagent of its parent, with its calls', async () => {
    const sessions = await only('subagent');
    const child = sessions.find((session) => session.isSidechain);
    const parent = sessions.find((session) => !session.isSidechain);
    assert.ok(child && parent);
    assert.equal(child.parentSessionId, parent.id);
    const calls = await opencodeAdapter.readSessionCalls(parent);
    assert.ok(calls.ok);
    assert.equal(calls.value.subagents.length, 1);
    assert.equal(calls.value.subagents[0]?.session.id, child.id);
    const uses = await opencodeAdapter.readLiveContext(parent);
    assert.ok(uses.ok);
    assert.ok(uses.value.messages.some((message) => message.content.some((block) => block.type === 'tool_use' && block.name === 'task')));
  });
});
