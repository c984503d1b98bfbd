// Issue 39 in real VS Code, dark and light, on the demo session (Claude Code's own /compact, priced as
// the cost e2e test prices it): the cache line under the gauge, the timeline's mark on the call that
// missed the cache after that compaction (its cause and cost on hover), the audit of the compaction in
// History (what it dropped of the person's, opening on the list), and a subagent's start.
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Frame, Page } from 'playwright-core';
import { closeDemoPanel, openDemoPanel } from '../support/demoPanel';
import { copyDemoWorkspace, prepareDemoSession, writeWorkspaceSettings } from '../support/demoSession';
import { screenshot, type Workbench } from '../support/workbench';

const THEMES = (
  [
    ['dark', 'Default Dark Modern'],
    ['light', 'Default Light Modern'],
  ] as const
).filter(([suffix]) => !process.env.TOUR_THEME || process.env.TOUR_THEME === suffix);

/** Sonnet 4.5's list prices for the demo's unpriced model, as in cost.test.ts. */
const DEMO_PRICES = { 'claude-sonnet-5-5': { input: 3, output: 15, cacheWrite: 3.75, cacheWrite1h: 6, cacheRead: 0.3 } };
const USD = String.raw`\$\d[\d,]*\.\d+`;
const SUBAGENT = join(
  __dirname,
  '../fixtures/claude-code/parallel/projects/-home-user-ledger-service/e82f8412-7d81-442a-9f4a-e5e81e6c341b/subagents/agent-adc56eb8c89a23359.jsonl',
);

for (const [suffix, theme] of THEMES) {
  describe(`cache health and the audit of Claude Code's compaction (${suffix} theme)`, { timeout: 300_000 }, () => {
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

    it("says the cache's health under the gauge and marks the call that missed on the timeline", async () => {
      const line = frame.locator('[data-testid="cache-health"]');
      await line.waitFor({ state: 'visible', timeout: 30_000 });
      assert.match(await line.innerText(), new RegExp(`^\\s*cache \\d+ % · 1 miss cost ${USD}, a compaction$`));
      assert.match((await line.getAttribute('title')) ?? '', new RegExp(`cache miss after a compaction: \\+${USD}`));
      const mark = frame.locator('[data-testid="timeline-cache-miss"]');
      await mark.first().waitFor({ state: 'visible', timeout: 10_000 });
      assert.equal(await mark.count(), 1);
      assert.match((await mark.getAttribute('title')) ?? '', new RegExp(`^call \\d+: cache miss after a compaction: \\+${USD}$`));
      // The call's hover says it too.
      const box = await mark.boundingBox();
      assert.ok(box);
      await page.mouse.move(box.x + box.width / 2, box.y - 4);
      const tooltip = frame.locator('[data-testid="timeline-tooltip"]');
      await tooltip.waitFor({ state: 'visible', timeout: 5_000 });
      assert.match(await tooltip.innerText(), /cache miss after a compaction: \+\$/);
      await frame.locator('[data-testid="timeline"]').scrollIntoViewIfNeeded();
      await screenshot(page, `cache-health-${suffix}`);
      await page.mouse.move(box.x - 400, box.y - 300);
    });

    it("says what Claude Code's compaction dropped of the person's in History, and opens on the list", async () => {
      const audit = frame.locator('[data-testid="history-audit"]');
      await audit.waitFor({ state: 'visible', timeout: 30_000 });
      // The demo's summary (its placeholders padded back to length) holds all of the person's rules and loops.
      assert.match(await audit.locator('summary').innerText(), /^\s*Claude Code's compaction at .+ dropped nothing of yours \(5 carried\)$/);
      await audit.locator('summary').click();
      const carried = audit.locator('[data-testid="audit-carried"]');
      await carried.first().waitFor({ state: 'visible' });
      assert.equal(await carried.count(), 5);
      assert.equal(await audit.locator('[data-testid="audit-dropped"]').count(), 0);
      assert.match((await carried.allInnerTexts()).join('\n'), /carried · rule: Constraints: never modify config\/prod\.yaml/);
      await audit.scrollIntoViewIfNeeded();
      await screenshot(page, `compaction-audit-${suffix}`);
    });

    it("opens the compaction's before/after in the diff editor", async () => {
      const audit = frame.locator('[data-testid="history-audit"]');
      await audit.locator('[data-testid="audit-openDiff"]').click();
      // The right side is what the agent kept: its summary.
      await page.locator('.monaco-diff-editor .editor.modified .view-line', { hasText: /\S/ }).first().waitFor({ timeout: 30_000 });
      await screenshot(page, `compaction-audit-diff-${suffix}`);
    });

    it('says what the subagent started with', async () => {
      const section = frame.locator('[data-testid="subagents"]');
      await section.waitFor({ state: 'visible', timeout: 30_000 });
      await section.locator('summary').click();
      const started = section.locator('[data-testid="subagent-started"]');
      await started.waitFor({ state: 'visible' });
      assert.match(await started.innerText(), /started with [\d.]+k/);
      await section.scrollIntoViewIfNeeded();
      await screenshot(page, `subagent-started-${suffix}`);
    });
  });
}
