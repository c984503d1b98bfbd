// Smoke test in real VS Code (code-server + Chromium): the extension activates, its panel opens
// from the command palette, and its webview renders text we can read. Then: VS Code opened before
// `claude` ran in the workspace picks up the session as soon as its transcript appears.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { prepareDemoClaudeConfig } from '../../scripts/demoSession';
import { DEMO_WORKSPACE } from '../support/demoSession';
import { runCommand, screenshot, startWorkbench, statusBarItem, webviewFrame, type Workbench } from '../support/workbench';

const ROOT = join(__dirname, '..', '..');

for (const theme of ['Default Dark Modern', 'Default Light Modern']) {
  describe(`Context Lens panel without a session, in code-server (${theme})`, { timeout: 240_000 }, () => {
    let workbench: Workbench;
    let page: Page;
    // An empty Claude configuration: this suite checks what a user with no session sees.
    const claudeConfigDir = mkdtempSync(join(tmpdir(), 'context-lens-empty-claude-'));

    before(async () => {
      workbench = await startWorkbench({ workspace: join(ROOT, 'samples', 'demo-workspace'), theme, claudeConfigDir });
      page = workbench.page;
    });

    after(async () => {
      await workbench?.close();
      rmSync(claudeConfigDir, { recursive: true, force: true });
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

describe('Context Lens panel when the session starts after VS Code, in code-server', { timeout: 240_000 }, () => {
  let workbench: Workbench;
  let page: Page;
  const claudeConfigDir = mkdtempSync(join(tmpdir(), 'context-lens-later-claude-'));

  before(async () => {
    workbench = await startWorkbench({ workspace: DEMO_WORKSPACE, theme: 'Default Dark Modern', claudeConfigDir });
    page = workbench.page;
  });

  after(async () => {
    await workbench?.close();
    rmSync(claudeConfigDir, { recursive: true, force: true });
  });

  it('switches from the empty state to the session once its transcript appears', async () => {
    await runCommand(page, 'Context Lens: Open Panel');
    const frame = await webviewFrame(page);
    await frame.locator('#app', { hasText: 'No agent session found for this workspace' }).waitFor({ timeout: 20_000 });
    // What `claude` does on its first run here: the session file appears (by a rename).
    prepareDemoClaudeConfig(DEMO_WORKSPACE, claudeConfigDir);
    await frame.locator('[data-testid="fill-summary"]').waitFor({ timeout: 20_000 });
    const item = statusBarItem(page);
    await item.filter({ hasText: /\d+% · / }).waitFor({ timeout: 20_000 });
    await screenshot(page, 'empty-then-session-dark');
  });
});
