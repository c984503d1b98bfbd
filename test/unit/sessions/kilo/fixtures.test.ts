// Kilo's recorded sessions (the real kilo 7.7.7 offline, test/fixtures/kilo/recorded) through its
// adapter: its own compactions in history with their summaries, every call it paid for (the
// summariser's included) as the stand-in counted them, and which `<database>#<id>` paths are Kilo's
// rather than OpenCode's.
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { adapterOf, AGENTS } from '../../../../src/sessions/agents';
import { kiloAdapter } from '../../../../src/sessions/kilo/adapter';
import { kiloFixture } from '../../../support/contract/kilo';
import { tempDir } from '../../../support/tempDir';

const dir = tempDir('cl-kilo-fixtures-');

async function live(fixture: string, id: string) {
  const db = kiloFixture(fixture, dir);
  const info = await kiloAdapter.readSessionInfo(`${db}#${id}`);
  assert.ok(info.ok, JSON.stringify(info));
  const read = await kiloAdapter.readLiveContext(info.value);
  assert.ok(read.ok);
  return { info: info.value, live: read.value };
}

describe('Kilo recorded sessions', () => {
  it("lists Kilo's own two compactions with their summaries, and only what follows the newest as live", async () => {
    const { info, live: context } = await live('compaction', 'ses_de0465080ffeotOxeaB0jfXMm1');
    assert.equal(info.agent, 'kilo');
    assert.deepEqual(
      context.compactions.map((event) => [event.by, event.trigger, event.preTokens]),
      [
        ['agent', 'auto', 12_315],
        ['agent', 'auto', 12_531],
      ],
    );
    assert.ok(context.compactions.every((event) => (event.summary ?? '').length > 0));
    assert.equal(context.fill.usedTokens, 12_498);
    assert.equal(context.entries.filter((entry) => entry.kind === 'compact-summary').length, 1);
  });

  it("counts every call it paid for, the summariser's too: 3 turns and 2 summaries, 6 turns in the tools session", async () => {
    const compaction = await live('compaction', 'ses_de0465080ffeotOxeaB0jfXMm1');
    const calls = await kiloAdapter.readSessionCalls(compaction.info);
    assert.ok(calls.ok);
    assert.equal(calls.value.calls.length, 5);
    const tools = await live('tools', 'ses_de04758b6ffe4pjQ3kkOFPuxHv');
    const toolCalls = await kiloAdapter.readSessionCalls(tools.info);
    assert.ok(toolCalls.ok);
    assert.deepEqual(
      toolCalls.value.calls.map((call) => call.usage.inputTokens + call.usage.cacheReadInputTokens + call.usage.cacheCreationInputTokens),
      [12_301, 12_403, 12_473, 12_567, 12_636, 12_730],
    );
    assert.deepEqual(
      tools.live.messages.flatMap((message) => message.content.filter((block) => block.type === 'tool_use').map((block) => block.name)),
      ['read', 'bash', 'read', 'edit'],
    );
  });

  it('gives a kilo.db session to Kilo and an opencode.db one to OpenCode, Kilo being offered first', async () => {
    const owner = async (path: string) => {
      for (const adapter of AGENTS) if (await adapter.owns(path)) return adapter.id;
      return null;
    };
    assert.equal(await owner('/home/me/.local/share/kilo/kilo.db#ses_de0465080ffeotOxeaB0jfXMm1'), 'kilo');
    assert.equal(await owner('/home/me/.local/share/kilo/kilo-beta.db#ses_de0465080ffeotOxeaB0jfXMm1'), 'kilo');
    assert.equal(await owner(join(dir, 'opencode.db#ses_de0465080ffeotOxeaB0jfXMm1')), 'opencode');
    assert.equal(adapterOf('kilo').resumeCommand({ id: 'ses_x' } as never), 'kilo --session ses_x');
  });

  it("lists a Kilo database under any name as Kilo's (its kilo_board table), and OpenCode lists nothing of it", async () => {
    const renamed = join(dir, 'renamed', 'sessions.db');
    mkdirSync(join(renamed, '..'), { recursive: true });
    copyFileSync(kiloFixture('tools', join(dir, 'source')), renamed);
    const kilo = await kiloAdapter.listSessions({ homes: { kilo: [renamed] } });
    assert.ok(kilo.ok);
    assert.deepEqual(
      kilo.value.map((session) => [session.agent, session.id]),
      [['kilo', 'ses_de04758b6ffe4pjQ3kkOFPuxHv']],
    );
    const opencode = await adapterOf('opencode').listSessions({ homes: { opencode: [renamed] } });
    assert.ok(opencode.ok);
    assert.deepEqual(opencode.value, []);
  });
});
