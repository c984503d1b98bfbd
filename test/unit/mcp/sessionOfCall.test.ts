// Which session a compact_context or recall call belongs to, for agents that do not name it to
// their MCP servers (Codex CLI starts them with HOME, PATH and LANG only): the one conversation the
// proxy served lately, or a refusal that says why when it served several.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { sessionOfCall } from '../../../src/mcp/sessionOfCall';
import { ProxyEventWriter, type ProxyEvent } from '../../../src/proxy/events';
import { tempDir } from '../../support/tempDir';

const NOW = Date.parse('2026-11-28T02:00:00.000Z');
const CODEX_A = '01a21fd4-06eb-7560-a093-97e2083337fa';
const CODEX_B = '01a21fd4-1111-7560-a093-97e2083337fb';

function event(fields: Partial<ProxyEvent>): ProxyEvent {
  return {
    v: 1,
    time: new Date(NOW - 60_000).toISOString(),
    session: 'k1',
    agentSession: null,
    format: 'openai-responses',
    method: 'POST',
    path: '/v1/responses',
    action: 'unchanged',
    reason: null,
    model: null,
    stream: true,
    agentTokens: 1,
    sentTokens: 1,
    stickyEdits: 0,
    newEdits: [],
    restored: [],
    addedMs: 0,
    status: 200,
    usage: null,
    error: null,
    ...fields,
  };
}

async function stateWith(events: ProxyEvent[]): Promise<string> {
  const dir = tempDir('cl-mcp-session-');
  const writer = new ProxyEventWriter(join(dir, 'events.jsonl'));
  for (const line of events) writer.append(line);
  await writer.flush();
  return dir;
}

describe('sessionOfCall', () => {
  it('takes the session the environment names, whatever the proxy served', async () => {
    const dir = await stateWith([event({ agentSession: CODEX_A }), event({ session: 'k2', agentSession: CODEX_B })]);
    assert.deepEqual(await sessionOfCall(CODEX_B, dir, NOW), { ok: true, value: CODEX_B });
  });

  it("without one, the one conversation the proxy served lately, by the agent's own id", async () => {
    const dir = await stateWith([
      event({ agentSession: CODEX_A }),
      event({ agentSession: CODEX_A, action: 'edited' }),
      event({ session: '', action: 'passthrough', path: '/v1/models' }),
    ]);
    assert.deepEqual(await sessionOfCall(null, dir, NOW), { ok: true, value: CODEX_A });
  });

  it('refuses, saying why, when the proxy served two conversations of the agent lately; an old one does not count', async () => {
    const two = await stateWith([event({ agentSession: CODEX_A }), event({ session: 'k2', agentSession: CODEX_B })]);
    const refused = await sessionOfCall(null, two, NOW);
    assert.ok(!refused.ok);
    assert.match(refused.error, /cannot tell which conversation called this tool.*served 2 conversations.*Nothing was done/s);
    // Requests that named no session (Gemini CLI, OpenCode) are told apart by the proxy's own key.
    const unnamed = await stateWith([event({ format: 'gemini' }), event({ format: 'gemini', session: 'k2' })]);
    assert.equal((await sessionOfCall(null, unnamed, NOW)).ok, false);
    const old = await stateWith([
      event({ agentSession: CODEX_A, time: new Date(NOW - 3_600_000).toISOString() }),
      event({ session: 'k2', agentSession: CODEX_B }),
    ]);
    assert.deepEqual(await sessionOfCall(null, old, NOW), { ok: true, value: CODEX_B });
  });

  it('one conversation whose requests named no session, or none yet: no session (the proxy applies it while it serves one)', async () => {
    assert.deepEqual(await sessionOfCall(null, await stateWith([event({ format: 'gemini' })]), NOW), { ok: true, value: null });
    assert.deepEqual(await sessionOfCall(null, tempDir('cl-mcp-none-'), NOW), { ok: true, value: null });
  });
});
