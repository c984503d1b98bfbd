// A Cline session in the panel, in real VS Code, while the real Cline CLI (3.0.65, offline against
// the chat-completions stand-in) writes to it: the panel finds the session in the data folder named
// by CLINE_DATA_DIR, shows its title and the exact fill of its last answer with Cline's own point,
// and follows a turn Cline appends when it resumes the session (`cline --id`) to that turn's fill.
import { findWorkspaceSession } from '../../src/sessions/handle/defaults';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Frame, Page } from 'playwright-core';
import { clineAdapter } from '../../src/sessions/cline/adapter';
import type { SessionInfo } from '../../src/sessions/types';
import { runOutcome } from '../support/cliRun';
import { clineDataDir, ensureClineCli, resumeInTerminal, runClineTask } from '../support/clineCli';
import { startFakeChat, type FakeChat } from '../support/fake-openai-chat';
import { runCommand, screenshot, startWorkbench, statusBarItem, webviewFrame, type Workbench } from '../support/workbench';

const RUN_TIMEOUT_MS = 240_000;
/** Cline gives a model it does not know 128k, and shrinks its history 30k below that. */
const WINDOW = 128_000;
const CLINE_POINT = 98_000;

function lastTurnPrompt(chat: FakeChat): number {
  const last = chat.requests.filter((request) => request.kind === 'turn').at(-1);
  assert.ok(last, 'the stand-in saw no turn request');
  return last.prompt;
}

const summaryText = (used: number): string => `${used.toLocaleString('en-US')} / ${WINDOW.toLocaleString('en-US')} tokens`;

for (const [theme, shade] of [
  ['Default Dark Modern', 'dark'],
  ['Default Light Modern', 'light'],
] as const) {
  describe(`a Cline session followed live in the panel, in code-server (${theme})`, { timeout: 900_000 }, () => {
    const root = mkdtempSync(join(tmpdir(), 'context-lens-cline-e2e-'));
    const workspace = join(root, 'tally');
    const agentRoot = join(root, 'cline');
    let chat: FakeChat;
    let session: SessionInfo;
    let workbench: Workbench;
    let page: Page;
    let frame: Frame;

    before(async () => {
      ensureClineCli();
      mkdirSync(workspace, { recursive: true });
      chat = await startFakeChat({
        steps: [
          { toolCalls: [{ name: 'run_commands', arguments: { commands: ['echo hi'] } }] },
          { text: 'It printed hi.' },
          { text: 'Added a test for the retry.' },
        ],
      });
      // A session exists before VS Code starts: the panel opens on it.
      const first = await runClineTask('Run echo hi and tell me what it printed.', {
        root: agentRoot,
        cwd: workspace,
        baseUrl: chat.url,
        timeoutMs: RUN_TIMEOUT_MS,
      });
      assert.equal(first.code, 0, runOutcome(first));
      const found = await findWorkspaceSession(clineAdapter, workspace, { homes: { cline: [clineDataDir(agentRoot)] } });
      assert.ok(found.ok && found.value, JSON.stringify(found));
      session = found.value;
      workbench = await startWorkbench({ workspace, theme, claudeConfigDir: join(root, 'claude'), env: { CLINE_DATA_DIR: clineDataDir(agentRoot) } });
      page = workbench.page;
      await runCommand(page, 'Context Lens: Open Panel');
      frame = await webviewFrame(page);
    });

    after(async () => {
      await workbench?.close();
      await chat?.stop();
      rmSync(root, { recursive: true, force: true });
    });

    it("shows the session's title and the exact fill of its last answer, with Cline's own point", async () => {
      const live = await clineAdapter.readLiveContext(session);
      assert.ok(live.ok);
      const used = live.value.fill.usedTokens;
      assert.equal(used, lastTurnPrompt(chat));
      await frame.locator('[data-testid="fill-summary"]', { hasText: summaryText(used) }).waitFor({ timeout: 60_000 });
      assert.equal(await frame.locator('[data-testid="session-title"]').innerText(), session.title);
      assert.match(await statusBarItem(page).innerText(), new RegExp(`${Math.round((used / WINDOW) * 100)}%`));
      assert.equal(await frame.locator('.gauge-label.mark-agent').innerText(), `Cline ${((CLINE_POINT / WINDOW) * 100).toFixed(1)} %`);
      await screenshot(page, `cline-panel-${shade}`);
    });

    it('follows the turn Cline appends when it resumes the session, to its exact fill', async () => {
      const before = lastTurnPrompt(chat);
      const resumed = await resumeInTerminal(session.id, 'One more thing: add a test for the retry.', {
        root: agentRoot,
        cwd: workspace,
        baseUrl: chat.url,
        timeoutMs: RUN_TIMEOUT_MS,
      });
      const used = lastTurnPrompt(chat);
      assert.ok(used > before, `the resumed turn was sent\n${runOutcome(resumed)}`);
      await frame.locator('[data-testid="fill-summary"]', { hasText: summaryText(used) }).waitFor({ timeout: 30_000 });
      const calls = chat.requests.filter((request) => request.kind === 'turn').length;
      await frame.locator('[data-testid="session-cost"]', { hasText: `${calls} calls` }).waitFor({ timeout: 30_000 });
      assert.deepEqual(chat.errors, []);
      await screenshot(page, `cline-followed-${shade}`);
    });
  });
}
