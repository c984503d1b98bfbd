import assert from 'node:assert/strict';
import { appendFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { ProjectWatcher, type ProjectWatcherOptions } from '../../../../src/sessions/claude-code/projectWatcher';
import type { SessionSwitch } from '../../../../src/sessions/types';
import { basicSession, tempDir, TranscriptBuilder } from './builders';

// Generous: a missed fs.watch event still shows up through the poll well within this.
const TIMEOUT_MS = 5000;
const watchers: ProjectWatcher[] = [];

afterEach(() => {
  for (const watcher of watchers.splice(0)) watcher.dispose();
});

function watch(projectDir: string, options: ProjectWatcherOptions = {}): { watcher: ProjectWatcher; switches: SessionSwitch[] } {
  const watcher = new ProjectWatcher(projectDir, { debounceMs: 20, pollMs: 200, ...options });
  watchers.push(watcher);
  const switches: SessionSwitch[] = [];
  watcher.on('sessionSwitched', (change) => switches.push(change));
  return { watcher, switches };
}

async function until(condition: () => boolean, what: string, timeoutMs = TIMEOUT_MS): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await sleep(20);
  }
}

describe('ProjectWatcher', () => {
  it('switches to a new session in the followed project, not to an append or an empty file', async () => {
    const projectDir = tempDir();
    const builder = basicSession();
    const current = builder.write(projectDir);
    const { watcher, switches } = watch(projectDir, { current });
    await watcher.start();
    builder.text('msg_3', 'More.', { input: 5, output: 3 });
    appendFileSync(current, `${builder.lines.at(-1)}\n`);
    writeFileSync(join(projectDir, 'session-2.jsonl'), '');
    await watcher.refresh();
    assert.equal(switches.length, 0);

    const newer = basicSession(new TranscriptBuilder('session-3')).write(projectDir);
    await until(() => switches.length > 0, 'sessionSwitched');
    assert.equal(switches.length, 1);
    assert.equal(switches[0]?.session.path, newer);
    assert.equal(switches[0]?.session.title, 'Fix the retry bug');
    assert.equal(switches[0]?.previousPath, current);
  });

  it('waits for the first session in a project folder that does not exist yet', async () => {
    const configDir = join(tempDir(), 'claude');
    const projectDir = join(configDir, 'projects', '-home-user-project');
    // Only fs.watch on the nearest existing ancestor can notice in time: the poll is slower than the limit.
    const { watcher, switches } = watch(projectDir, { pollMs: 60_000 });
    await watcher.start();
    assert.equal(switches.length, 0);

    mkdirSync(configDir);
    await sleep(100);
    const first = basicSession().write(projectDir);
    await until(() => switches.length > 0, 'sessionSwitched after the folders were created', 10_000);
    assert.equal(switches[0]?.session.path, first);
    assert.equal(switches[0]?.previousPath, null);
  });

  it('takes a session already there when waiting starts', async () => {
    const projectDir = tempDir();
    const existing = basicSession().write(projectDir);
    const { watcher, switches } = watch(projectDir);
    await watcher.start();
    assert.equal(switches.length, 1);
    assert.equal(switches[0]?.session.path, existing);
  });

  it('keeps waiting when the folders are removed and created again', async () => {
    const configDir = tempDir();
    const projectDir = join(configDir, 'projects', '-home-user-project');
    mkdirSync(projectDir, { recursive: true });
    const { watcher, switches } = watch(projectDir);
    await watcher.start();
    rmSync(configDir, { recursive: true });
    await sleep(100);
    const first = basicSession().write(projectDir);
    await until(() => switches.length > 0, 'sessionSwitched after the folders were recreated');
    assert.equal(switches[0]?.session.path, first);
  });

  it('emits nothing once disposed', async () => {
    const projectDir = join(tempDir(), 'projects', 'p');
    const { watcher, switches } = watch(projectDir, { pollMs: 20 });
    await watcher.start();
    watcher.dispose();
    basicSession().write(projectDir);
    await sleep(200);
    assert.equal(switches.length, 0);
  });
});
