// What the demo session costs, in real VS Code, dark and light: the session total under the gauge, a
// call's cost on the timeline's hover, the map sorted by cost, grouped by file (the re-read
// provider the costliest), the subagents under the session's cost and in Select Session… (a recorded
// subagent transcript placed under the demo session), and the preview's break-even line. The demo was recorded with
// `claude-sonnet-5-5`, which the bundled table has no price for: the demo workspace's settings give
// it Sonnet 4.5's list prices through contextLens.cost.prices, as the README says.
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync } from 'node:fs';
import { basename, join } from 'node:path';
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

/** Sonnet 4.5's list prices (US dollars per million tokens) for the demo's unpriced model. */
const DEMO_PRICES = { 'claude-sonnet-5-5': { input: 3, output: 15, cacheWrite: 3.75, cacheWrite1h: 6, cacheRead: 0.3 } };
const USD = String.raw`\$\d[\d,]*\.\d+`;
/** A subagent transcript recorded by the real CLI (test/fixtures/claude-code/parallel), on the demo's model. */
const SUBAGENT = join(
  __dirname,
  '../fixtures/claude-code/parallel/projects/-home-user-ledger-service/e82f8412-7d81-442a-9f4a-e5e81e6c341b/subagents/agent-adc56eb8c89a23359.jsonl',
);

/**
 * Select Session… open with the subagents' costs in. A webview that is still settling right after
 * the window opened can take the focus back and close the picker before the costs come in (it then
 * stops pricing, as when the person closes it): opened again, as `runCommand` retries a palette that
 * closed. What the rows said is in the error when no priced row ever shows.
 */
async function pickerWithCosts(page: Page) {
  const widget = page.locator('.quick-input-widget');
  const priced = widget.locator('.monaco-list-row', { hasText: /fill [\d.]+k? · \$/ });
  for (let attempt = 1; ; attempt++) {
    await runCommand(page, 'Context Lens: Select Session…');
    // The picker shows once the sessions are listed: until then the widget is hidden, not closed.
    await widget
      .locator('.quick-input-title', { hasText: 'Context Lens: Select Session' })
      .waitFor({ state: 'visible', timeout: 15_000 })
      .catch(() => undefined);
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline && (await widget.isVisible()) && !(await priced.first().isVisible())) await page.waitForTimeout(100);
    if (await priced.first().isVisible()) return priced;
    const rows = (await widget.isVisible()) ? await widget.locator('.monaco-list-row').allInnerTexts() : [];
    if (attempt === 3 || rows.length > 0)
      throw new Error(`no priced subagent row in Select Session… (attempt ${attempt}): ${rows.length === 0 ? 'the picker closed' : rows.join(' | ')}`);
    console.log(`cost: Select Session… closed before the costs came in (attempt ${attempt}); opening it again`);
  }
}

for (const [suffix, theme] of THEMES) {
  describe(`the demo's costs (${suffix} theme)`, { timeout: 300_000 }, () => {
    let workbench: Workbench;
    let page: Page;
    let frame: Frame;
    const workspace = copyDemoWorkspace();
    const demo = prepareDemoSession(workspace);

    before(async () => {
      writeWorkspaceSettings(workspace, { 'contextLens.cost.prices': DEMO_PRICES });
      const subagents = join(demo.projectDir, basename(demo.transcript, '.jsonl'), 'subagents');
      mkdirSync(subagents, { recursive: true });
      copyFileSync(SUBAGENT, join(subagents, basename(SUBAGENT)));
      ({ workbench, page, frame } = await openDemoPanel(workspace, demo, { theme, maximise: true }));
    });

    after(async () => {
      await closeDemoPanel(workbench, workspace, demo);
    });

    it("says the session's cost next to the gauge and each call's on the timeline", async () => {
      const total = frame.locator('[data-testid="session-cost"]');
      await total.waitFor({ state: 'visible', timeout: 30_000 });
      assert.match(await total.innerText(), new RegExp(`^\\s*Session cost: ${USD} so far · \\d+ calls`));
      const plot = frame.locator('[data-testid="timeline-plot"]');
      const box = await plot.boundingBox();
      assert.ok(box);
      await page.mouse.move(box.x + box.width - 3, box.y + box.height / 2);
      const tooltip = frame.locator('[data-testid="timeline-tooltip"]');
      await tooltip.waitFor({ state: 'visible', timeout: 5_000 });
      assert.match(await tooltip.innerText(), new RegExp(`tokens.* · ${USD}`));
      await page.mouse.move(box.x - 50, box.y - 50);
    });

    it('lists the subagent under the session with its calls, fill and cost, in the panel and in Select Session…', async () => {
      const section = frame.locator('[data-testid="subagents"]');
      await section.waitFor({ state: 'visible', timeout: 30_000 });
      assert.match(await section.locator('summary').innerText(), new RegExp(`^1 subagent: ${USD} · \\d+ calls?$`));
      await section.locator('summary').click();
      const row = section.locator('[data-testid="subagent"]');
      await row.waitFor({ state: 'visible' });
      assert.match(await row.locator('[data-testid="subagent-cost"]').innerText(), new RegExp(`^${USD}$`));
      await screenshot(page, `cost-subagents-${suffix}`);
      await section.locator('summary').click();

      const priced = await pickerWithCosts(page);
      assert.match(await priced.first().innerText(), new RegExp(`subagent of “[^]*\\d+ calls? · fill [\\d.]+k? · ${USD} · (?:started with [^·]+ · )?/`));
      await screenshot(page, `cost-picker-${suffix}`);
      await page.keyboard.press('Escape');
    });

    it('sorts the map by cost and groups it by file: the re-read provider costs the most', async () => {
      await frame.locator('[data-testid="region-cost"]', { hasText: '$' }).first().waitFor({ timeout: 30_000 });
      await frame.locator('[data-testid="map-view-cost"]').click();
      const costs = await frame.locator('[data-testid="region-row"]:visible [data-testid="region-cost"]').allInnerTexts();
      const amounts = costs.map((text) => Number(text.replace(/[$,]/g, '')));
      assert.ok(amounts.length > 3 && amounts.every((amount, k) => k === 0 || amount <= (amounts[k - 1] as number)), costs.join(' '));
      await frame.locator('[data-testid="region-map"]').scrollIntoViewIfNeeded();
      await screenshot(page, `cost-map-${suffix}`);

      await frame.locator('[data-testid="map-view-group"]').click();
      const top = frame.locator('[data-testid="file-group"]').first();
      await top.waitFor({ timeout: 10_000 });
      const text = await top.innerText();
      assert.match(text, /src\/providers\/stripe\.ts/);
      assert.match(text, /4 tool calls/);
      assert.match(text, new RegExp(USD));
      await frame.locator('[data-testid="file-groups"]').scrollIntoViewIfNeeded();
      await screenshot(page, `cost-by-file-${suffix}`);
    });

    it('the preview says when the compaction pays off', async () => {
      await compactWithFocus(page, 'the retry backoff');
      const line = frame.locator('[data-testid="preview-break-even"]');
      await line.waitFor({ timeout: 60_000 });
      await compactionProgressGone(page);
      assert.match(await line.innerText(), new RegExp(`^\\s*Compacting costs ${USD} once, saves ${USD} per call: pays off after \\d+ calls?$`));
      await frame.locator('[data-testid="preview"]').scrollIntoViewIfNeeded();
      await screenshot(page, `cost-preview-${suffix}`);
    });
  });
}
