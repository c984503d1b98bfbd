// A Kilo session in the panel, in real VS Code, while the real Kilo CLI (@kilocode/cli 7.7.7, offline
// against the chat-completions stand-in) writes to it: the panel finds the session in Kilo's database
// named by KILO_DB, shows its title and the exact fill of its last response with Kilo's own
// compaction point, and follows a second run resumed from the workspace to that run's exact fill.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Frame, Page } from 'playwright-core';
import { kiloAdapter } from '../../src/sessions/kilo/adapter';
import { findWorkspaceSession } from '../../src/sessions/handle/defaults';
import type { SessionInfo } from '../../src/sessions/types';
import { startFakeChat, type FakeChat } from '../support/fake-openai-chat';
import { ensureKiloCli, kiloDb, kiloEnv, runKilo } from '../support/kiloCli';
import { runOutcome, type CliRun } from '../support/cliRun';
import { hostLogLines, runCommand, screenshot, startWorkbench, statusBarItem, webviewFrame, type Workbench } from '../support/workbench';

/** A run takes 15–60 s on two shared cores, longer beside code-server and chromium. */
const RUN_TIMEOUT_MS = 240_000;
/** The window the stand-in's model declares, and where Kilo compacts with it (context − output cap). */
const WINDOW = 200_000;
const KILO_POINT = 192_000;

/** The prompt the stand-in priced for the newest turn request: the exact fill Kilo's last response recorded. */
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
  describe(`a Kilo session followed live in the panel, in code-server (${theme})`, { timeout: 900_000 }, () => {
    const root = mkdtempSync(join(tmpdir(), 'context-lens-kilo-e2e-'));
    const workspace = join(root, 'tally');
    /** Kilo's private HOME, XDG folders and database; the extension is told only the database and the config. */
    const agentRoot = join(root, 'kilo');
    const db = kiloDb(agentRoot);
    let chat: FakeChat;
    let binary: string;
    let session: SessionInfo;
    let workbench: Workbench;
    let page: Page;
    let frame: Frame;

    const run = (args: readonly string[]): Promise<CliRun> =>
      runKilo({ binary, root: agentRoot, cwd: workspace, baseUrl: chat.url, timeoutMs: RUN_TIMEOUT_MS, args });

    before(async () => {
      binary = ensureKiloCli();
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
      const found = await findWorkspaceSession(kiloAdapter, workspace, { homes: { kilo: [db] } });
      assert.ok(found.ok && found.value, JSON.stringify(found));
      session = found.value;
      // The config carries the model's limits, which set Kilo's compaction point on the gauge.
      const agentEnv = kiloEnv({ root: agentRoot, baseUrl: chat.url });
      const env = { KILO_DB: db, KILO_CONFIG_CONTENT: agentEnv.KILO_CONFIG_CONTENT ?? '', XDG_CONFIG_HOME: agentEnv.XDG_CONFIG_HOME ?? '' };
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

    it("shows the session's title and the exact fill of its last response, with Kilo's own point", async () => {
      const live = await kiloAdapter.readLiveContext(session);
      assert.ok(live.ok);
      const used = live.value.fill.usedTokens;
      assert.equal(used, lastTurnPrompt(chat));
      await frame.locator('[data-testid="fill-summary"]', { hasText: summaryText(used) }).waitFor({ timeout: 60_000 });
      assert.equal(await frame.locator('[data-testid="session-title"]').innerText(), session.title);
      assert.match(await statusBarItem(page).innerText(), new RegExp(`${Math.round((used / WINDOW) * 100)}%`));
      const mark = frame.locator('.gauge-label.mark-agent');
      assert.equal(await mark.innerText(), `Kilo ${((KILO_POINT / WINDOW) * 100).toFixed(1)} %`);
      assert.match(
        (await mark.getAttribute('title')) ?? '',
        new RegExp(`^Kilo compacts by itself at about ${((KILO_POINT / WINDOW) * 100).toFixed(1)} % of the window`),
      );
      const panel = await frame.locator('#app').innerText();
      assert.doesNotMatch(panel, /Claude|OpenCode|ses_|kilo\.db/);
      await screenshot(page, `kilo-panel-${shade}`);
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
      try {
        await frame.locator('[data-testid="session-cost"]', { hasText: `${calls} calls` }).waitFor({ timeout: 30_000 });
      } catch (error) {
        // What the host read and priced, and what the panel shows instead: a failure here says why.
        console.error(`host log:\n${hostLogLines(workbench.server.profileDir).slice(-60).join('\n')}`);
        console.error(
          `cost line: ${await frame
            .locator('[data-testid="session-cost"]')
            .textContent()
            .catch(() => '?')}`,
        );
        throw error;
      }
      await frame.locator(`[data-testid="timeline-plot"][aria-label^="Fill per API call: ${calls} calls"]`).waitFor({ timeout: 30_000 });
      assert.match(await frame.locator('[data-testid="legend"]').innerText(), /tool calls/);
      // Reads the host made again after meeting the database mid-write (readScheduler.ts): counted, for the record.
      const failedReads = hostLogLines(workbench.server.profileDir).filter((line) =>
        /Reading the live context .* failed|Pricing the calls .* failed/.test(line),
      );
      console.error(
        `kilo e2e (${shade}): fill ${before} → ${used} over ${calls} calls; run ${ran - started} ms, fill caught up ${caughtUp} ms and calls ${Date.now() - ran} ms after it exited; ${failedReads.length} failed reads made again${failedReads.length > 0 ? `:\n${failedReads.join('\n')}` : ''}`,
      );
      const live = await kiloAdapter.readLiveContext(session);
      assert.ok(live.ok);
      assert.equal(live.value.fill.usedTokens, used);
      assert.match(await statusBarItem(page).innerText(), new RegExp(`${Math.round((used / WINDOW) * 100)}%`));
      assert.deepEqual(chat.errors, []);
      await screenshot(page, `kilo-followed-${shade}`);
    });
  });
}
