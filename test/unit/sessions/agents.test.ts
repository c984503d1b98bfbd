// Which agent wrote a file is told by its first records, parsed: a rollout rewritten by a tool that
// spells its JSON differently is still Codex's, and a file no registered agent wrote is said to be so.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { AGENTS, identifyFile } from '../../../src/sessions/agents';
import { assistant, item, meta, turnContext, user, writeRollout } from './codex/syntheticRollout';

describe('identifyFile', () => {
  const home = mkdtempSync(join(tmpdir(), 'cl-agents-'));
  after(() => rmSync(home, { recursive: true, force: true }));
  const lines = [meta(), turnContext(), item(user('Count the lines.')), item(assistant('400.'))];

  it('knows a Codex rollout however its JSON is spelled (spaces after colons, indentation-free pretty printing)', async () => {
    for (const [name, format] of [
      ['compact', (record: unknown) => JSON.stringify(record)],
      ['spaced', (record: unknown) => JSON.stringify(record).replace(/":/g, '": ').replace(/,"/g, ', "')],
    ] as const) {
      const path = writeRollout(join(home, name), lines, format);
      const told = await identifyFile(path);
      assert.equal(told.adapter?.id, 'codex', name);
      assert.equal(told.unrecognised, undefined);
      const session = await told.adapter.readSessionInfo(path);
      assert.ok(session.ok);
      const live = await told.adapter.readLiveContext(session.value);
      assert.ok(live.ok);
      assert.equal(live.value.messages.length, 2, `${name}: the prompt and the answer`);
    }
  });

  it('knows a Claude Code transcript by its record types, and refuses a file none of them wrote by name, guessing no agent', async () => {
    const claude = join(home, 'claude.jsonl');
    writeFileSync(claude, `${JSON.stringify({ type: 'user', uuid: 'u1', parentUuid: null, sessionId: 's', message: { role: 'user', content: 'hi' } })}\n`);
    assert.equal((await identifyFile(claude)).adapter?.id, 'claude-code');
    const other = join(home, 'other.jsonl');
    writeFileSync(other, '{"event": "click", "x": 1}\n');
    const told = await identifyFile(other);
    assert.equal(told.adapter, undefined, 'no agent is guessed: Claude Code used to be');
    assert.match(told.unrecognised ?? '', new RegExp(`^${other.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is not a session file`));
    // Every registered agent is named, not only the first two that were added.
    for (const adapter of AGENTS) assert.ok(told.unrecognised?.includes(adapter.name), adapter.name);
  });
});
