// An OpenCode session in the panel, in real VS Code, while the real OpenCode CLI (1.18.33, offline
// against the chat-completions stand-in) writes to it: the panel finds the session in the database
// named by OPENCODE_DB, shows its title and the exact fill of its last response with OpenCode's own
// compaction point, and follows a second run resumed from the workspace to that run's exact fill.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Frame, Page } from 'playwright-core';
import { opencodeAdapter } from '../../src/sessions/opencode/adapter';
import type { SessionLocations } from '../../src/sessions/port';
import type { SessionInfo } from '../../src/sessions/types';
import { startFakeChat, type FakeChat } from '../support/fake-openai-chat';
import { ensureOpencodeCli, opencodeDb, opencodeEnv, runOpencode, type OpencodeRun } from '../support/opencodeCli';
import { runOutcome } from '../support/cliRun';
import { runCommand, screenshot, startWorkbench, statusBarItem, webviewFrame, type Workbench } from '../support/workbench';
import { findWorkspaceSession } from '../../src/sessions/handle/defaults';

/** A run takes 15–60 s on two shared cores, longer beside code-server and chromium. */
const RUN_TIMEOUT_MS = 240_000;
/** The window the stand-in's model declares, and where OpenCode compacts with it (context − output cap). */
const WINDOW = 200_000;
const OPENCODE_POINT = 192_000;

/** The prompt the stand-in priced for the newest turn request: the exact fill OpenCode's last response recorded. */
function lastTurnPrompt(chat: FakeChat): number {
  const turns = chat.requests.filter((request) => request.kind === 'turn');
  const last = turns[turns.length - 1];
  assert.ok(last, 'the stand-in saw no turn request');
  return last.prompt;
}

const summaryText = (used: number): string => `${used.toLocaleString('en-US')} / ${WINDOW.toLocaleString('en-US')} tokens`;

for (const [theme, shade] of [
  ['Default Dark Modern', 'dark'],
  ['Default Light Modern', 'light'],
] as const) {
  describe(`an OpenCode session followed live in the panel, in code-server (${theme})`, { timeout: 900_000 }, () => {
    const root = mkdtempSync(join(tmpdir(), 'context-lens-opencode-e2e-'));
    const workspace = join(root, 'tally');
    /** OpenCode's private HOME, XDG folders and database; the extension is told only the database and the config. */
    const agentRoot = join(root, 'opencode');
    const db = opencodeDb(agentRoot);
    let chat: FakeChat;
    let binary: string;
    let session: SessionInfo;
    let workbench: Workbench;
    let page: Page;
    let frame: Frame;

    const run = (args: readonly string[]): Promise<OpencodeRun> =>
      runOpencode({ binary, root: agentRoot, cwd: workspace, baseUrl: chat.url, timeoutMs: RUN_TIMEOUT_MS, args });

    before(async () => {
      binary = ensureOpencodeCli();
      mkdirSync(workspace, { recursive: true });
      chat = await startFakeChat({
        steps: [
          { text: 'Hello there.' },
          { toolCalls: [{ name: 'bash', arguments: { command: 'echo hi', description: 'Say hi' } }] },
          { text: 'It printed hi.' },
        ],
      });
      // A session exists before VS Code starts: the panel opens on it.
      const first = await run(['run', '--format', 'json', 'Say hello.']);
      assert.equal(first.code, 0, runOutcome(first));
      const found = await findWorkspaceSession(opencodeAdapter, workspace, { homes: { opencode: [db] } } as SessionLocations);
      assert.ok(found.ok && found.value, JSON.stringify(found));
      session = found.value;
      // The config carries the model's limits, which set OpenCode's compaction point on the gauge.
      const agentEnv = opencodeEnv({ root: agentRoot, baseUrl: chat.url });
      const env = { OPENCODE_DB: db, OPENCODE_CONFIG_CONTENT: agentEnv.OPENCODE_CONFIG_CONTENT ?? '', XDG_CONFIG_HOME: agentEnv.XDG_CONFIG_HOME ?? '' };
      workbench = await startWorkbench({ workspace, theme, claudeConfigDir: join(root, 'claude'), env });
      page = workbench.page;
      await runCommand(page, 'Context Lens: Open Panel');
      frame = await webviewFrame(page);
    });

    after(async () => {
      await workbench?.close();
      await chat?.stop();
      rmSync(root, { recursive: true, force: true });
    });

    it("shows the session's title and the exact fill of its last response, with OpenCode's own point", async () => {
      const live = await opencodeAdapter.readLiveContext(session);
      assert.ok(live.ok);
      const used = live.value.fill.usedTokens;
      assert.equal(used, lastTurnPrompt(chat));
      await frame.locator('[data-testid="fill-summary"]', { hasText: summaryText(used) }).waitFor({ timeout: 60_000 });
      assert.equal(await frame.locator('[data-testid="session-title"]').innerText(), session.title);
      assert.match(await statusBarItem(page).innerText(), new RegExp(`${Math.round((used / WINDOW) * 100)}%`));
      const mark = frame.locator('.gauge-label.mark-agent');
      assert.equal(await mark.innerText(), `OpenCode ${((OPENCODE_POINT / WINDOW) * 100).toFixed(1)} %`);
      assert.match(
        (await mark.getAttribute('title')) ?? '',
        new RegExp(`^OpenCode compacts by itself at about ${((OPENCODE_POINT / WINDOW) * 100).toFixed(1)} % of the window`),
      );
      const panel = await frame.locator('#app').innerText();
      assert.doesNotMatch(panel, /Claude|ses_|opencode\.db/);
      await screenshot(page, `opencode-panel-${shade}`);
    });

    it('follows a second run resumed from the workspace to its exact fill', async () => {
      const before = lastTurnPrompt(chat);
      const started = Date.now();
      const second = await run(['run', '--format', 'json', '--session', session.id, 'Run echo hi.']);
      assert.equal(second.code, 0, runOutcome(second));
      const ran = Date.now();
      const used = lastTurnPrompt(chat);
      assert.ok(used > before, `the second run's prompt ${used} is past the first's ${before}`);
      // The follower polls the database and its log every 2 s besides fs.watch: one poll or two.
      await frame.locator('[data-testid="fill-summary"]', { hasText: summaryText(used) }).waitFor({ timeout: 30_000 });
      const caughtUp = Date.now() - ran;
      // The calls (cost line, timeline) are read after the fill: the panel settles on every call of both runs.
      const calls = chat.requests.filter((request) => request.kind === 'turn').length;
      await frame.locator('[data-testid="session-cost"]', { hasText: `${calls} calls` }).waitFor({ timeout: 30_000 });
      await frame.locator(`[data-testid="timeline-plot"][aria-label^="Fill per API call: ${calls} calls"]`).waitFor({ timeout: 30_000 });
      assert.match(await frame.locator('[data-testid="legend"]').innerText(), /tool calls/);
      console.error(
        `opencode e2e (${shade}): fill ${before} → ${used} over ${calls} calls; run ${ran - started} ms, fill caught up ${caughtUp} ms and calls ${Date.now() - ran} ms after it exited`,
      );
      const live = await opencodeAdapter.readLiveContext(session);
      assert.ok(live.ok);
      assert.equal(live.value.fill.usedTokens, used);
      assert.match(await statusBarItem(page).innerText(), new RegExp(`${Math.round((used / WINDOW) * 100)}%`));
      assert.deepEqual(chat.errors, []);
      await screenshot(page, `opencode-followed-${shade}`);
    });
  });
}
