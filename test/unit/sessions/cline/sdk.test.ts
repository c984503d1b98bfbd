// Cline's SDK layout (the CLI 3.0.65's recordings) and where both layouts live: the SDK's own
// compaction summary opens the live history and is a compaction; a subagent's messages file is a
// sidechain of its parent whose calls count in the parent's cost; the extension's storage folders of
// VS Code and VS Code Insiders on Linux, macOS and Windows; no other file is taken for Cline's.
import { findWorkspaceSession } from '../../../../src/sessions/handle/defaults';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { clineAdapter } from '../../../../src/sessions/cline/adapter';
import { defaultDataDir, defaultGlobalStorages } from '../../../../src/sessions/cline/paths';
import { copyRecorded, RECORDED_CLINE, recordedPath } from '../../../support/clineFixtures';

const scratch = mkdtempSync(join(tmpdir(), 'cl-cline-sdk-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

describe('Cline SDK sessions (CLI 3.0.65)', () => {
  it("opens the live history at the SDK's compaction summary, lists it as Cline's compaction, and estimates until the next call", async () => {
    const home = copyRecorded('tools', join(scratch, 'compacted'));
    const tools = RECORDED_CLINE.find((recorded) => recorded.fixture === 'tools')!;
    const path = recordedPath(home, tools.id);
    const document = JSON.parse(readFileSync(path, 'utf8')) as { messages: unknown[] };
    const summary = {
      id: 'sum-1',
      role: 'user',
      content: [{ type: 'text', text: 'Summary: notes read, answer fixed to 42.' }],
      ts: Date.now(),
      metadata: { kind: 'compaction_summary', displayRole: 'system', userRunSpan: 1, summary: 'Summary: notes read, answer fixed to 42.' },
    };
    document.messages.push(summary);
    writeFileSync(path, JSON.stringify(document));
    const info = await clineAdapter.readSessionInfo(path);
    assert.ok(info.ok);
    const live = await clineAdapter.readLiveContext(info.value);
    assert.ok(live.ok);
    assert.equal(live.value.messages.length, 1);
    assert.equal(live.value.entries[0]?.kind, 'compact-summary');
    assert.deepEqual(
      live.value.compactions.map((event) => [event.uuid, event.by, event.summary]),
      [['sum-1', 'agent', 'Summary: notes read, answer fixed to 42.']],
    );
    assert.equal(live.value.fill.source, 'estimate');
    assert.equal(live.value.fill.compactedSinceUsage, true);
  });

  it("lists a subagent's messages as a sidechain of its parent, and counts its calls in the parent's", async () => {
    const home = join(__dirname, '..', '..', '..', 'fixtures', 'cline', 'recorded', 'subagent');
    const listed = await clineAdapter.listSessions({ homes: { cline: [home] } });
    assert.ok(listed.ok);
    const [parent, child] = RECORDED_CLINE.filter((recorded) => recorded.fixture === 'subagent');
    const sub = listed.value.find((session) => session.id === child!.id);
    assert.equal(sub?.isSidechain, true);
    assert.equal(sub?.parentSessionId, parent!.id);
    assert.equal(sub?.cwd, child!.workspace);
    const main = listed.value.find((session) => session.id === parent!.id)!;
    assert.equal((await findWorkspaceSession(clineAdapter, parent!.workspace, { homes: { cline: [home] } })).ok, true);
    const calls = await clineAdapter.readSessionCalls(main);
    assert.ok(calls.ok);
    assert.equal(calls.value.calls.length, 2);
    assert.deepEqual(
      calls.value.subagents.map((agent) => [agent.session.id, agent.calls.length]),
      [[child!.id, 2]],
    );
  });

  it("looks in CLINE_DATA_DIR (else ~/.cline/data) and in VS Code's and VS Code Insiders' globalStorage on each system", () => {
    assert.equal(defaultDataDir({ HOME: '/home/ana' }), '/home/ana/.cline/data');
    assert.equal(defaultDataDir({ HOME: '/home/ana', CLINE_DATA_DIR: '/data/cline' }), '/data/cline');
    const linux = defaultGlobalStorages({ HOME: '/home/ana' }, 'linux');
    assert.ok(linux.includes('/home/ana/.config/Code/User/globalStorage/saoudrizwan.claude-dev'));
    assert.ok(linux.includes('/home/ana/.config/Code - Insiders/User/globalStorage/saoudrizwan.claude-dev'));
    const mac = defaultGlobalStorages({ HOME: '/Users/ana' }, 'darwin');
    assert.ok(mac.includes('/Users/ana/Library/Application Support/Code/User/globalStorage/saoudrizwan.claude-dev'));
    assert.ok(mac.includes('/Users/ana/Library/Application Support/Code - Insiders/User/globalStorage/saoudrizwan.claude-dev'));
    const windows = defaultGlobalStorages({ USERPROFILE: 'C:\\Users\\ana', APPDATA: 'C:\\Users\\ana\\AppData\\Roaming' }, 'win32');
    assert.ok(windows.includes('C:\\Users\\ana\\AppData\\Roaming\\Code - Insiders\\User\\globalStorage\\saoudrizwan.claude-dev'));
    assert.ok(windows.includes('C:\\Users\\ana\\AppData\\Roaming\\Code\\User\\globalStorage\\saoudrizwan.claude-dev'));
  });

  it('refuses a messages file too big to parse whole, saying its size, without reading it', async () => {
    const folder = join(scratch, 'big', 'sessions', '1795828400000_big00');
    mkdirSync(folder, { recursive: true });
    const path = join(folder, '1795828400000_big00.messages.json');
    writeFileSync(path, '');
    truncateSync(path, 65 * 1024 * 1024);
    const info = await clineAdapter.readSessionInfo(path);
    assert.ok(info.ok);
    const live = await clineAdapter.readLiveContext(info.value);
    assert.ok(!live.ok);
    assert.match(live.error.message, /^Over 67108864 bytes \(68157440\): not read/);
  });

  it("takes only Cline's files by their name and place", async () => {
    for (const path of [
      '/x/sessions/abc/abc.json',
      '/x/sessions/abc/other.messages.json',
      '/x/tasks/1/ui_messages.json',
      '/x/session-1.jsonl',
      '/x/tasks/../api_conversation_history.json',
    ])
      assert.equal(await clineAdapter.owns(path), false, path);
    for (const path of [
      '/x/sessions/abc/abc.messages.json',
      '/x/sessions/abc/agent_12_x.messages.json',
      '/s/tasks/1769053680585/api_conversation_history.json',
      '/repo/exported_task_1769064454592/api_conversation_history.json',
    ])
      assert.equal(await clineAdapter.owns(path), true, path);
  });
});
