// The panel as a user meets it, in real VS Code, in a dark and a light theme, one screenshot per
// state: the demo panel (gauge with both trigger marks, timeline, map), a value on timeline hover,
// keep / drop / pin in the map, the preview card, VS Code's diff editor, a refused setting, and
// after Apply. The README's screenshots are taken from these (see media/README.md).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Frame, Page } from 'playwright-core';
import { closeDemoPanel, compactionProgressGone, compactWithFocus, openDemoPanel } from '../support/demoPanel';
import { copyDemoWorkspace, prepareDemoSession, writeWorkspaceSettings } from '../support/demoSession';
import { runCommand, screenshot, type Workbench } from '../support/workbench';

const THEMES = (
  [
    ['dark', 'Default Dark Modern'],
    ['light', 'Default Light Modern'],
  ] as const
).filter(([suffix]) => !process.env.TOUR_THEME || process.env.TOUR_THEME === suffix);

for (const [suffix, theme] of THEMES) {
  describe(`the panel tour (${suffix} theme)`, { timeout: 300_000 }, () => {
    let workbench: Workbench;
    let page: Page;
    let frame: Frame;
    const workspace = copyDemoWorkspace();
    const demo = prepareDemoSession(workspace);

    before(async () => {
      ({ workbench, page, frame } = await openDemoPanel(workspace, demo, { theme, maximise: true }));
    });

    after(async () => {
      await closeDemoPanel(workbench, workspace, demo);
    });

    it("shows the demo: both trigger marks below Claude Code's point explained, the timeline and the map from the top", async () => {
      await frame.locator('[data-testid="fill-summary"]', { hasText: '/ 200,000 tokens' }).waitFor({ timeout: 30_000 });
      await frame.locator('#region-map-title', { hasText: /^What Compact… would do/ }).waitFor({ timeout: 20_000 });
      // Left at its default, our trigger sits below Claude Code's auto-compact point, and says so.
      const trigger = Number(await frame.locator('[data-testid="gauge-mark-trigger"]').getAttribute('data-percent'));
      const agent = Number(await frame.locator('[data-testid="gauge-mark-agent"]').getAttribute('data-percent'));
      assert.ok(trigger < agent, `trigger ${trigger} below the agent's ${agent}`);
      assert.match(await frame.locator('[data-testid="threshold-notes"]').innerText(), /points below Claude Code's auto-compact point/);
      // The map opens at its top: the first rows are on screen.
      assert.ok(await frame.locator('[data-testid="region-row"][data-id="0"]').isVisible());
      // No agent markup or tool schemas in the labels.
      const labels = await frame.locator('[data-testid="region-row"] .col-label').allInnerTexts();
      assert.ok(
        labels.every((label) => !label.includes('<system-reminder>') && !label.includes('input_schema')),
        labels.join(' | '),
      );
      await screenshot(page, `tour-panel-${suffix}`);
    });

    it('says the value of a call on hover over the timeline', async () => {
      const plot = frame.locator('[data-testid="timeline-plot"]');
      await plot.scrollIntoViewIfNeeded();
      const box = await plot.boundingBox();
      assert.ok(box);
      await page.mouse.move(box.x + 3, box.y + box.height / 2);
      const tooltip = frame.locator('[data-testid="timeline-tooltip"]');
      await tooltip.waitFor({ state: 'visible', timeout: 5_000 });
      assert.match(await tooltip.innerText(), /^call 1 .* tokens/);
      await screenshot(page, `tour-timeline-hover-${suffix}`);
      await page.mouse.move(box.x - 50, box.y - 50);
    });

    it('keeps and drops items in the map and pins a sentence; the plan follows at once', async () => {
      // The newest items are at the end of the map: End selects the last row and scrolls to it.
      await frame.locator('[data-testid="region-row"][data-id="0"]').click();
      await frame.locator('[data-testid="region-map"]').press('End');
      // Rows are recycled as the map scrolls: take rows near the end, which are on screen.
      const results = frame.locator('[data-testid="region-row"]', { hasText: 'tool results' });
      const dropped = results.last();
      const droppedId = await dropped.getAttribute('data-id');
      await dropped.locator('[data-testid="choice-drop"]').click();
      const droppedRow = frame.locator(`[data-testid="region-row"][data-id="${droppedId}"]`);
      await frame.locator(`[data-testid="region-row"][data-id="${droppedId}"][data-fate="dropped"]`).waitFor({ timeout: 10_000 });
      assert.match((await droppedRow.getAttribute('title')) ?? '', /your choice \(drop\)/);
      // Keyboard: select a row and press K.
      const keptId = await frame.locator('[data-testid="region-row"]', { hasText: 'assistant' }).last().getAttribute('data-id');
      await frame.locator(`[data-testid="region-row"][data-id="${keptId}"]`).click();
      await frame.locator('[data-testid="region-map"]').press('k');
      await frame.locator(`[data-testid="region-row"][data-id="${keptId}"][data-choice="keep"]`).waitFor({ timeout: 10_000 });
      // Pin a sentence from the detail pane.
      const text = frame.locator('[data-testid="detail-text"]');
      await text.waitFor({ timeout: 10_000 });
      await text.evaluate((node) => {
        const document = node.ownerDocument;
        const range = document.createRange();
        const first = node.firstChild ?? node;
        range.setStart(first, 0);
        range.setEnd(first, Math.min(40, first.textContent?.length ?? 0));
        const selection = document.getSelection();
        selection?.removeAllRanges();
        selection?.addRange(range);
      });
      await frame.locator('[data-testid="pin-selection"]').click();
      const bar = frame.locator('[data-testid="choices-bar"]');
      await bar.locator('.choice-pin').waitFor({ timeout: 10_000 });
      assert.match(await bar.innerText(), new RegExp(`kept #${keptId}.*dropped #${droppedId}`, 's'));
      await bar.scrollIntoViewIfNeeded();
      await screenshot(page, `tour-choices-${suffix}`);
    });

    it('previews Compact… with the choices: one headline, the steps that acted, the summary as Markdown', async () => {
      await compactWithFocus(page, 'the retry backoff');
      const preview = frame.locator('[data-testid="preview"]');
      await preview.waitFor({ timeout: 60_000 });
      await compactionProgressGone(page);
      assert.match(await frame.locator('[data-testid="preview-headline"]').innerText(), /^[\d,]+ → [\d,]+ tokens \(−\d+ %\) · target [\d,]+ (met|not met)$/);
      // The person's choices in the words of the choices bar, keeps counted as well as drops.
      assert.match(
        await frame.locator('[data-testid="preview-choices"]').innerText(),
        /^Your choices: kept 1 \(#\d+\) · dropped 1 \(#\d+\) · 1 pinned sentence/,
      );
      assert.doesNotMatch(await frame.locator('[data-testid="preview-tiers"]').innerText(), /−0 tokens/);
      const rendered = frame.locator('[data-testid="summary-markdown"]');
      if ((await rendered.count()) > 0) {
        assert.doesNotMatch(await rendered.innerText(), /<context-summary|Treat it as background reference/);
        await frame.locator('[data-testid="summary-toggle"]').click();
        await frame.locator('[data-testid="summary-raw"]').waitFor({ state: 'visible' });
        await frame.locator('[data-testid="summary-toggle"]').click();
      }
      await preview.scrollIntoViewIfNeeded();
      await screenshot(page, `tour-preview-${suffix}`);
    });

    it("opens the diff in VS Code's diff editor as plain text with wrapped lines", async () => {
      await frame.locator('[data-testid="preview-open-diff"]').click();
      await page.locator('.monaco-diff-editor').first().waitFor({ timeout: 20_000 });
      // Plain text: a Markdown document first waits for the extensions that serve Markdown to start.
      // The status bar names the language (it can lag behind on a loaded machine, so the editor's own mode id counts too).
      await page
        .locator('[id="status.editor.mode"]:has-text("Plain Text"), .monaco-diff-editor .monaco-editor[data-mode-id="plaintext"]')
        .first()
        .waitFor({ timeout: 30_000 });
      // Wrapped: no line of the right side runs past the editor's width. The extension turns wrap on
      // once the editor has focus, a moment after it opens: poll rather than read once.
      const overflowingLines = () =>
        page
          .locator('.monaco-diff-editor .editor.modified .view-line')
          .evaluateAll((lines) => lines.filter((line) => line.scrollWidth > (line.closest('.monaco-scrollable-element')?.clientWidth ?? Infinity)).length);
      let overflowing = await overflowingLines();
      for (const deadline = Date.now() + 10_000; overflowing > 0 && Date.now() < deadline; overflowing = await overflowingLines())
        await page.waitForTimeout(200);
      await screenshot(page, `tour-diff-editor-${suffix}`);
      assert.equal(overflowing, 0, 'long lines are wrapped, not clipped');
      await runCommand(page, 'View: Close Editor');
      // Opening an editor restored the panel: maximise it again for the next screenshots.
      await runCommand(page, 'View: Toggle Maximized Panel');
    });

    it('refuses a target above the trigger: a warning, and the gauge says which value is used', async () => {
      writeWorkspaceSettings(workspace, { 'contextLens.trigger.targetPercent': 90 });
      const toast = page.locator('.notification-toast', { hasText: 'Target 90 % is not below the trigger' });
      await toast.waitFor({ timeout: 20_000 });
      await frame.locator('[data-testid="threshold-notes"]', { hasText: 'using 60 %' }).waitFor({ timeout: 10_000 });
      assert.equal(await frame.locator('[data-testid="gauge-mark-target"]').getAttribute('data-percent'), '60');
      await frame.locator('[data-testid="threshold-notes"]').scrollIntoViewIfNeeded();
      await screenshot(page, `tour-settings-validation-${suffix}`);
      await toast
        .locator('.codicon-notifications-clear')
        .click()
        .catch(() => undefined);
    });

    it('applies: the fork is written and followed, the choices are cleared', async () => {
      await frame.locator('[data-testid="preview-apply"]').click();
      // The panel follows the fork: its header, gauge and map; the original's preview goes.
      await frame.locator('[data-testid="fork-of"]').waitFor({ timeout: 30_000 });
      await frame.locator('[data-testid="preview"]').waitFor({ state: 'detached', timeout: 20_000 });
      await frame.locator('[data-testid="choices-bar"]').waitFor({ state: 'hidden', timeout: 20_000 });
      await compactionProgressGone(page);
      await frame.locator('header').scrollIntoViewIfNeeded();
      await screenshot(page, `tour-applied-${suffix}`);
    });
  });
}
