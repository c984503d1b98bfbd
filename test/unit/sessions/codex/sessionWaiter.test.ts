// Waiting for a workspace's first Codex session: a rollout Codex starts in today's dated folder
// (which does not exist when the wait begins) is found once its first record is written, matched
// to the workspace by its cwd; another workspace's rollout is not; nothing fires after dispose.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, describe, it } from 'node:test';
import { listRolloutFiles } from '../../../../src/sessions/codex/paths';
import { recentDayFolders, waitForCodexSession } from '../../../../src/sessions/codex/sessionWaiter';
import type { SessionInfo } from '../../../../src/sessions/types';

const FIXTURE_HOME = join(__dirname, '..', '..', '..', 'fixtures', 'codex', 'tally');
const RECORDED_CWD = '/home/user/tally';

async function rolloutText(cwd: string): Promise<string> {
  const [path] = await listRolloutFiles(FIXTURE_HOME);
  assert.ok(path);
  return readFileSync(path, 'utf8').split(RECORDED_CWD).join(cwd);
}

async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('waiting for a Codex session', () => {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'cl-codex-wait-')));
  after(() => rmSync(root, { recursive: true, force: true }));

  it("finds the workspace's first rollout once Codex writes its first record, and only that one", async () => {
    const home = join(root, 'codex');
    const workspace = join(root, 'tally');
    mkdirSync(workspace, { recursive: true });
    const found: SessionInfo[] = [];
    const waiter = await waitForCodexSession(
      [home],
      workspace,
      (session) => found.push(session),
      (diagnostic) => assert.fail(diagnostic.message),
      { pollMs: 20 },
    );
    try {
      assert.deepEqual(waiter.where, [join(home, 'sessions')]);
      const [today] = recentDayFolders(home, new Date());
      assert.ok(today);
      mkdirSync(today, { recursive: true });
      writeFileSync(join(today, 'rollout-2026-11-24T10-00-00-0b7c4c47-8d43-4a8e-9c55-3a1f6f7d2e10.jsonl'), await rolloutText('/elsewhere'));
      const ours = join(today, 'rollout-2026-11-24T10-00-01-01a20a7c-91ba-7042-b356-3b768f64638e.jsonl');
      writeFileSync(ours, '');
      await new Promise((resolve) => setTimeout(resolve, 100));
      assert.equal(found.length, 0, "an empty rollout and another workspace's are not it");
      writeFileSync(ours, await rolloutText(workspace));
      await until(() => found.length > 0, 'the rollout');
      assert.equal(found[0]?.path, ours);
      assert.equal(found[0]?.agent, 'codex');
      await new Promise((resolve) => setTimeout(resolve, 100));
      assert.equal(found.length, 1, 'found once');
      waiter.dispose();
      writeFileSync(join(today, 'rollout-2026-11-24T10-00-02-11a20a7c-91ba-7042-b356-3b768f64638e.jsonl'), await rolloutText(workspace));
      await new Promise((resolve) => setTimeout(resolve, 100));
      assert.equal(found.length, 1, 'nothing after dispose');
    } finally {
      waiter.dispose();
    }
  });

  it("looks in yesterday's folder too (a session started just before midnight)", () => {
    const [today, yesterday] = recentDayFolders('/h', new Date(2026, 0, 1, 0, 0, 5));
    assert.equal(today, join('/h', 'sessions', '2026', '01', '01'));
    assert.equal(yesterday, join('/h', 'sessions', '2025', '12', '31'));
    assert.equal(dirname(dirname(dirname(today ?? ''))), join('/h', 'sessions'));
  });
});
