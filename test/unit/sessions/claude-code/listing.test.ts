import assert from 'node:assert/strict';
import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { findWorkspaceSession, listSessions } from '../../../../src/sessions/claude-code/listing';
import { encodeProjectDirName } from '../../../../src/sessions/claude-code/paths';
import { TranscriptBuilder, basicSession, tempDir } from './builders';

function setup() {
  const config = tempDir();
  const workspace = tempDir('cl-workspace-');
  const project = join(config, 'projects', encodeProjectDirName(workspace));
  return { config, workspace, project };
}

function age(path: string, secondsAgo: number): void {
  const when = new Date(Date.now() - secondsAgo * 1000);
  utimesSync(path, when, when);
}

describe('session listing', () => {
  it('titles: custom-title, else ai-title, else summary, else first real prompt (truncated)', async () => {
    const { config, workspace, project } = setup();
    const custom = basicSession(new TranscriptBuilder('s-custom', workspace));
    custom
      .record({ type: 'summary', summary: 'old summary' })
      .record({ type: 'custom-title', customTitle: 'First name', sessionId: 's-custom' })
      .record({ type: 'custom-title', customTitle: 'My title', sessionId: 's-custom' });
    custom.write(project);
    const summary = basicSession(new TranscriptBuilder('s-summary', workspace));
    summary.record({ type: 'summary', summary: 'Retry fix' });
    summary.write(project);
    const prompt = new TranscriptBuilder('s-prompt', workspace);
    prompt.user('<command-name>/clear</command-name>');
    prompt.user('Reminder', { isMeta: true });
    prompt.user(`Please   fix\nthe retry ${'logic '.repeat(30)}`);
    prompt.write(project);
    const listed = await listSessions({ configDirs: [config], workspacePath: workspace });
    assert.ok(listed.ok);
    const titles = Object.fromEntries(listed.value.sessions.map((session) => [session.id, session.title]));
    assert.equal(titles['s-custom'], 'My title');
    assert.equal(titles['s-summary'], 'Retry fix');
    assert.match(titles['s-prompt'] ?? '', /^Please fix the retry logic/);
    assert.ok((titles['s-prompt'] ?? '').length <= 80);
    const info = listed.value.sessions.find((session) => session.id === 's-custom');
    assert.equal(info?.model, 'claude-sonnet-4-5');
    assert.equal(info?.cwd, workspace);
    assert.equal(info?.projectDir, project);
  });

  it('includes subagent transcripts as sidechains of their parent; picks the newest main session', async () => {
    const { config, workspace, project } = setup();
    const older = basicSession(new TranscriptBuilder('older', workspace)).write(project);
    const newer = basicSession(new TranscriptBuilder('newer', workspace)).write(project);
    const agent = new TranscriptBuilder('newer', workspace, true);
    agent.user('Search the code');
    const agentPath = agent.write(join(project, 'newer', 'subagents'), 'agent-a1.jsonl');
    age(older, 60);
    age(newer, 30);
    const listed = await listSessions({ configDirs: [config] });
    assert.ok(listed.ok);
    const sub = listed.value.sessions.find((session) => session.isSidechain);
    assert.equal(sub?.parentSessionId, 'newer');
    assert.equal(sub?.path, agentPath);
    assert.equal(sub?.projectDir, project);
    assert.equal(sub?.title, 'Search the code');
    const found = await findWorkspaceSession(workspace, { configDirs: [config] });
    assert.ok(found.ok);
    assert.equal(found.value?.id, 'newer');
  });

  it('no sessions, no config folder: an empty list; unreadable transcripts become diagnostics', async () => {
    const { config, workspace, project } = setup();
    const none = await findWorkspaceSession(workspace, { configDirs: [config] });
    assert.ok(none.ok);
    assert.equal(none.value, null);
    mkdirSync(join(project, 'broken.jsonl'), { recursive: true });
    writeFileSync(join(project, 'empty.jsonl'), '');
    const listed = await listSessions({ configDirs: [config], workspacePath: workspace });
    assert.ok(listed.ok);
    assert.deepEqual(
      listed.value.sessions.map((session) => session.title),
      ['Untitled session'],
    );
    assert.equal(listed.value.diagnostics[0]?.code, 'io');
  });

  it('a long workspace path matched by prefix is accepted only when the records name it', async () => {
    const config = tempDir();
    const workspace = `/nonexistent/${'deep/'.repeat(50)}ws`;
    const prefix = encodeProjectDirName(workspace).slice(0, 200);
    basicSession(new TranscriptBuilder('ours', workspace)).write(join(config, 'projects', `${prefix}-other`));
    basicSession(new TranscriptBuilder('theirs', `${workspace}2`)).write(join(config, 'projects', `${prefix}-third`));
    const listed = await listSessions({ configDirs: [config], workspacePath: workspace });
    assert.ok(listed.ok);
    assert.deepEqual(
      listed.value.sessions.map((session) => session.id),
      ['ours'],
    );
  });
});
