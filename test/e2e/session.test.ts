// The bundled demo session, recorded with the real Claude Code CLI, shown live in real VS Code:
// the gauge says exactly what the transcript's last usage says, and moves when the agent appends.
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import type { Frame, Page } from 'playwright-core';
import { readFill } from '../../src/sessions/claude-code/fill';
import { appendResponse, DEMO_WORKSPACE, prepareDemoSession } from '../support/demoSession';
import { runCommand, screenshot, startWorkbench, statusBarItem, webviewFrame, type Workbench } from '../support/workbench';

async function gaugeText(frame: Frame): Promise<string> {
  return frame.locator('[data-testid="fill-summary"]').innerText();
}

const SHADES: Record<string, string> = { 'Default Dark Modern': 'dark', 'Default Light Modern': 'light', 'Default High Contrast': 'high-contrast' };

for (const [theme, shade] of Object.entries(SHADES)) {
  describe(`Context Lens on the recorded demo session, in code-server (${theme})`, { timeout: 240_000 }, () => {
    let workbench: Workbench;
    let page: Page;
    const { claudeConfigDir, transcript } = prepareDemoSession();

    before(async () => {
      workbench = await startWorkbench({ workspace: DEMO_WORKSPACE, theme, claudeConfigDir });
      page = workbench.page;
    });

    after(async () => {
      await workbench?.close();
      rmSync(claudeConfigDir, { recursive: true, force: true });
    });

    it("shows the exact fill from the transcript's last usage, in the panel and the status bar", async () => {
      const expected = await readFill(transcript);
      assert.ok(expected.ok);
      const { usedTokens, windowTokens } = expected.value.fill;
      await runCommand(page, 'Context Lens: Open Panel');
      const frame = await webviewFrame(page);
      const summary = `${usedTokens.toLocaleString('en-US')} / ${windowTokens.toLocaleString('en-US')} tokens`;
      await frame.locator('[data-testid="fill-summary"]', { hasText: summary }).waitFor({ timeout: 20_000 });
      assert.match(await frame.locator('#app').innerText(), /exact, from the last response's usage/);
      assert.match(await statusBarItem(page).innerText(), new RegExp(`${Math.round((usedTokens / windowTokens) * 100)}% · `));
      await screenshot(page, `session-${shade}`);
    });

    it('moves the gauge when the agent appends a response', async () => {
      const frame = await webviewFrame(page);
      const before = await gaugeText(frame);
      appendResponse(transcript, 120_000);
      await frame.locator('[data-testid="fill-summary"]', { hasText: '120,010 / 200,000 tokens' }).waitFor({ timeout: 10_000 });
      assert.notEqual(await gaugeText(frame), before);
      assert.match(await statusBarItem(page).innerText(), /60% · 120k\/200k/);
      await screenshot(page, `session-appended-${shade}`);
    });

    it('offers a compaction once the fill crosses the trigger', async () => {
      appendResponse(transcript, 172_000);
      const offer = page.locator('.notification-toast', { hasText: 'past your trigger' });
      await offer.waitFor({ timeout: 15_000 });
      assert.match(await offer.innerText(), /86 % full \(172k\/200k\)/);
      assert.equal(await offer.locator('.monaco-button', { hasText: 'Compact…' }).count(), 1);
      // Installed from the .vsix as a person would: VS Code names the extension the offer comes from.
      const source = await offer.locator('.notification-list-item-source').innerText();
      assert.match(source, /Context Lens/);
      assert.doesNotMatch(source, /Null Extension/);
      await screenshot(page, `trigger-offer-${shade}`);
    });
  });
}
