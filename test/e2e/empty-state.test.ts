// Smoke test in real VS Code (code-server + Chromium): the extension activates, its panel opens
// from the command palette, and its webview renders text we can read.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { launchCodeServer, type RunningCodeServer } from '../../scripts/code-server/launch';
import { launchChromium } from '../support/browser';
import { openWorkbench, runCommand, screenshot, statusBarItem, webviewFrame } from '../support/workbench';

const ROOT = join(__dirname, '..', '..');

for (const theme of ['Default Dark Modern', 'Default Light Modern']) {
  describe(`Context Lens panel without a session, in code-server (${theme})`, { timeout: 240_000 }, () => {
    let server: RunningCodeServer;
    let browser: Browser;
    let page: Page;
    // An empty Claude configuration: this suite checks what a user with no session sees.
    const claudeConfig = mkdtempSync(join(tmpdir(), 'context-lens-empty-claude-'));

    before(async () => {
      server = await launchCodeServer({ extensionRoot: ROOT, workspace: join(ROOT, 'samples', 'demo-workspace'), theme, env: { CLAUDE_CONFIG_DIR: claudeConfig } });
      browser = await launchChromium();
      page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
      await openWorkbench(page, server.url);
    });

    after(async () => {
      await browser?.close();
      await server?.stop();
      rmSync(claudeConfig, { recursive: true, force: true });
    });

    it('opens the panel from the command palette and renders the webview', async () => {
      await runCommand(page, 'Context Lens: Open Panel');
      const frame = await webviewFrame(page);
      const text = await frame.locator('#app').innerText();
      assert.match(text, /Context Lens/);
      assert.match(text, /No agent session found for this workspace/);
      await screenshot(page, `empty-${theme.includes('Light') ? 'light' : 'dark'}`);
    });

    it('shows a placeholder in the status bar', async () => {
      const item = statusBarItem(page);
      await item.waitFor({ state: 'visible', timeout: 20_000 });
      assert.match(await item.innerText(), /—/);
    });
  });
}
