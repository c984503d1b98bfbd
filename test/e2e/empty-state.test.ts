// Smoke test in real VS Code (code-server + Chromium): the extension activates, its panel opens
// from the command palette, and its webview renders text we can read.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { launchCodeServer, type RunningCodeServer } from '../../scripts/code-server/launch';
import { launchChromium } from '../support/browser';
import { openWorkbench, runCommand, screenshot, webviewFrame } from '../support/workbench';

const ROOT = join(__dirname, '..', '..');

for (const theme of ['Default Dark Modern', 'Default Light Modern']) {
  describe(`Context Lens panel in code-server (${theme})`, { timeout: 240_000 }, () => {
    let server: RunningCodeServer;
    let browser: Browser;
    let page: Page;

    before(async () => {
      server = await launchCodeServer({ extensionRoot: ROOT, workspace: join(ROOT, 'samples', 'demo-workspace'), theme });
      browser = await launchChromium();
      page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
      await openWorkbench(page, server.url);
    });

    after(async () => {
      await browser?.close();
      await server?.stop();
    });

    it('opens the panel from the command palette and renders the webview', async () => {
      await runCommand(page, 'Context Lens: Open Panel');
      const frame = await webviewFrame(page);
      const text = await frame.locator('#app').innerText();
      assert.match(text, /Context Lens/);
      assert.match(text, /No agent session found for this workspace/);
      await screenshot(page, `panel-${theme.includes('Light') ? 'light' : 'dark'}`);
    });

    it('shows the fill in the status bar', async () => {
      const item = page.locator('#workbench\\.parts\\.statusbar [id="context-lens.context-lens.contextLens.fill"]');
      await item.waitFor({ state: 'visible', timeout: 20_000 });
      assert.match(await item.innerText(), /—|%/);
    });
  });
}
