// A subagent's transcript forks like a session: its records (all `isSidechain: true`) become the
// main chain of a new session in its parent's project folder, which reads back and which `claude
// --resume` finds. Checked on the 2.1.x subagent (`<session>/subagents/agent-*.jsonl`) and the
// 2.0.74 one (`agent-*.jsonl` beside the sessions), through the writer and through the CLI.
import assert from 'node:assert/strict';
import { cpSync, readFileSync, readdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { readLiveContext } from '../../../../src/sessions/claude-code/liveContext';
import { readSessionInfo } from '../../../../src/sessions/claude-code/listing';
import { writeFork } from '../../../../src/sessions/claude-code/fork';
import { claudeCodeAdapter } from '../../../../src/sessions/claude-code/adapter';
import type { RawRecord } from '../../../../src/sessions/claude-code/records';
import { CLAUDE_FIXTURES } from '../../../support/claudeFixtures';
import { run } from '../../cli/support';
import { tempDir } from '../../../support/tempDir';
import { listForks } from '../../../../src/sessions/handle/defaults';

const PARALLEL_PROJECT = join('projects', '-home-user-ledger-service');
const PARALLEL_AGENT = join(PARALLEL_PROJECT, 'e82f8412-7d81-442a-9f4a-e5e81e6c341b', 'subagents', 'agent-adc56eb8c89a23359.jsonl');
const LEGACY_PROJECT = join('projects', '-Users-user-project');
const LEGACY_AGENT = join(LEGACY_PROJECT, 'agent-a62673e.jsonl');

function copyFixture(name: string): string {
  const configDir = join(tempDir('cl-subfork-'), basename(name));
  cpSync(join(CLAUDE_FIXTURES, name), configDir, { recursive: true });
  return configDir;
}

function records(path: string): RawRecord[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as RawRecord);
}

/** The fork reads back as a main session of the parent's project, every chain record its own. */
async function assertMainSession(forkPath: string, projectDir: string, sourceId: string, sourceTitle: string): Promise<void> {
  assert.equal(dirname(forkPath), projectDir, 'beside the parent session, where claude --resume looks');
  const sessionId = basename(forkPath, '.jsonl');
  for (const record of records(forkPath).filter((record) => typeof record.uuid === 'string')) {
    assert.equal(record.isSidechain, false);
    assert.equal(record.sessionId, sessionId);
    assert.equal(record.agentId, undefined);
  }
  const info = await readSessionInfo(forkPath);
  assert.ok(info.ok);
  assert.equal(info.value.isSidechain, false);
  assert.equal(info.value.parentSessionId, undefined);
  assert.deepEqual(info.value.forkOf, { sessionId: sourceId, title: sourceTitle });
  const live = await readLiveContext(forkPath);
  assert.ok(live.ok);
  assert.deepEqual(live.value.diagnostics, []);
  assert.equal(live.value.entries[0]?.kind, 'compact-summary');
  assert.equal(live.value.compactions.at(-1)?.by, 'context-lens');
}

describe('forking a subagent transcript', () => {
  it('2.1.x subagent through the CLI: compact --write-session writes a main session in the project folder', async () => {
    const configDir = copyFixture('parallel');
    const agent = join(configDir, PARALLEL_AGENT);
    const state = tempDir('cl-state-');
    const before = readFileSync(agent);
    const result = await run(['compact', agent, '--json', '--write-session', '--target-tokens', '5000'], { XDG_STATE_HOME: state });
    assert.equal(result.code, 0, result.err);
    const { fork } = JSON.parse(result.out) as { fork: { sessionId: string; path: string } };
    assert.deepEqual(readFileSync(agent), before, 'the subagent file is only read');
    const source = await readSessionInfo(agent);
    assert.ok(source.ok);
    await assertMainSession(fork.path, join(configDir, PARALLEL_PROJECT), 'agent-adc56eb8c89a23359', source.value.title);
    // Listed with the parent's sessions, not as another subagent.
    const listed = await run(['sessions', '--all', '--json', '--config-dir', configDir]);
    const sessions = JSON.parse(listed.out) as { id: string; isSidechain: boolean }[];
    assert.equal(sessions.find((session) => session.id === fork.sessionId)?.isSidechain, false);
    // The subagent's History names its fork.
    assert.deepEqual(
      (await listForks(claudeCodeAdapter, source.value)).map((session) => session.id),
      [fork.sessionId],
    );
  });

  it('2.0.74 subagent (agent-*.jsonl beside the sessions) through the writer', async () => {
    const configDir = copyFixture(join('public', 'claude-history-2.0.74'));
    const agent = join(configDir, LEGACY_AGENT);
    const live = await readLiveContext(agent);
    assert.ok(live.ok);
    assert.equal(live.value.messages.length, 2);
    const written = await writeFork({
      sourcePath: agent,
      summary: 'The agent warmed up.',
      preserveUuids: live.value.entries.flatMap((entry) => entry.uuids),
      preTokens: 1547,
      postTokens: 100,
      title: live.value.session.title,
    });
    assert.ok(written.ok, written.ok ? '' : written.error.message);
    await assertMainSession(written.value.path, join(configDir, LEGACY_PROJECT), 'agent-a62673e', 'Warmup');
    const forked = await readLiveContext(written.value.path);
    assert.ok(forked.ok);
    assert.deepEqual(
      forked.value.messages.map((message) => message.role),
      ['user', 'assistant'],
    );
    assert.equal(readdirSync(join(configDir, LEGACY_PROJECT)).length, 4, 'one new file, in the project folder');
  });
});
