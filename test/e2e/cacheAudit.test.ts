// Issue 39 in real VS Code, dark and light, on the demo session (Claude Code's own /compact, priced as
// the cost e2e test prices it): the cache line under the gauge, the timeline's mark on the call that
// missed the cache after that compaction (its cause and cost on hover), the audit of the compaction in
// History (what it dropped of the person's, opening on the list), and a subagent's start. Then Codex's
// own compaction (test/fixtures/codex/compact-audit, recorded with the real CLI, its summary dropping
// one rule and one decision): History lists what it dropped and carried, and its Redo writes a fork.
import assert from 'node:assert/strict';
import { copyFileSync, cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Frame, Page } from 'playwright-core';
import { closeDemoPanel, openDemoPanel } from '../support/demoPanel';
import { copyDemoWorkspace, prepareDemoSession, writeWorkspaceSettings } from '../support/demoSession';
import { runCommand, screenshot, startWorkbench, webviewFrame, type Workbench } from '../support/workbench';

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

const CODEX_FIXTURE = join(__dirname, '..', 'fixtures', 'codex', 'compact-audit');
const CODEX_RECORDED_CWD = '/home/user/payments-audit';

/** Every rollout below `folder`, oldest name first. */
function rollouts(folder: string): string[] {
  return readdirSync(folder, { recursive: true, encoding: 'utf8' })
    .filter((path) => basename(path).startsWith('rollout-') && statSync(join(folder, path)).isFile())
    .sort()
    .map((path) => join(folder, path));
}

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
      // The demo's summary keeps the open question's first half only ("take the retry budget from
      // config/prod.yaml?"), not its alternative (the constant in src/payments.ts): matched by whole
      // words, that open loop is dropped; the rules, the other loops and the file are carried.
      assert.match(await audit.locator('summary').innerText(), /^\s*Claude Code's compaction at .+ dropped 1 open loop \(4 carried\)$/);
      await audit.locator('summary').click();
      const carried = audit.locator('[data-testid="audit-carried"]');
      await carried.first().waitFor({ state: 'visible' });
      assert.equal(await carried.count(), 4);
      assert.match(
        (await audit.locator('[data-testid="audit-dropped"]').allInnerTexts()).join('\n'),
        /Open question: should the retry budget come from config\/prod\.yaml/,
      );
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

for (const [suffix, theme] of THEMES) {
  describe(`the audit of Codex's own compaction and Redo with Context Lens (${suffix} theme)`, { timeout: 300_000 }, () => {
    const root = mkdtempSync(join(tmpdir(), 'context-lens-codex-audit-e2e-'));
    const workspace = join(root, 'payments-audit');
    const codexHome = join(root, 'codex');
    let workbench: Workbench;
    let page: Page;
    let frame: Frame;
    let source: string;

    before(async () => {
      mkdirSync(workspace, { recursive: true });
      cpSync(CODEX_FIXTURE, codexHome, { recursive: true });
      // The recording's cwd is sanitised: point it at this workspace, as if Codex had run here.
      for (const path of rollouts(join(codexHome, 'sessions'))) writeFileSync(path, readFileSync(path, 'utf8').split(CODEX_RECORDED_CWD).join(workspace));
      [source] = rollouts(join(codexHome, 'sessions')) as [string];
      workbench = await startWorkbench({ workspace, theme, claudeConfigDir: join(root, 'claude'), env: { CODEX_HOME: codexHome } });
      page = workbench.page;
      await runCommand(page, 'Context Lens: Open Panel');
      await runCommand(page, 'View: Toggle Maximized Panel');
      frame = await webviewFrame(page);
    });

    after(async () => {
      await workbench?.close();
      rmSync(root, { recursive: true, force: true });
    });

    it("lists what Codex's compaction dropped and carried of the person's in History", async () => {
      const audit = frame.locator('[data-testid="history-audit"]');
      await audit.waitFor({ state: 'visible', timeout: 60_000 });
      assert.match(await audit.locator('summary').innerText(), /^\s*Codex CLI's compaction at .+ dropped 1 rule, 1 decision \(3 carried\)$/);
      await audit.locator('summary').click();
      const dropped = audit.locator('[data-testid="audit-dropped"]');
      await dropped.first().waitFor({ state: 'visible' });
      assert.deepEqual((await dropped.allInnerTexts()).map((text) => text.trim()).sort(), [
        'dropped · decision: We decided to keep the HttpError class unchanged.',
        'dropped · rule: Always run npm test before you report that a change works.',
      ]);
      assert.deepEqual((await audit.locator('[data-testid="audit-carried"]').allInnerTexts()).map((text) => text.trim()).sort(), [
        "carried · decision: Let's go with exponential backoff for the retry delays.",
        'carried · file: src/retry.js',
        'carried · rule: Never modify config/prod.yaml.',
      ]);
      await audit.scrollIntoViewIfNeeded();
      await screenshot(page, `codex-compaction-audit-${suffix}`);
    });

    it('Redo with Context Lens writes a new Codex session beside it and offers to resume it', async () => {
      const sourceBytes = readFileSync(source);
      await frame.locator('[data-testid="history-audit"] [data-testid="audit-redo"]').click();
      const toast = page.locator('.notification-toast', { hasText: 'redone as a new session' });
      await toast.waitFor({ state: 'visible', timeout: 60_000 });
      const said = /resume it with `codex resume ([0-9a-f-]{36})`/.exec(await toast.innerText());
      assert.ok(said, await toast.innerText());
      const forks = rollouts(join(codexHome, 'sessions')).filter((path) => path !== source);
      assert.equal(forks.length, 1, 'one fork was written');
      const [fork] = forks as [string];
      assert.ok(fork.endsWith(`-${said[1]}.jsonl`), `the fork ${fork} is the session the notification names`);
      assert.equal(dirname(fork), dirname(source), 'written beside the source, where Codex finds it');
      // Our compaction of the context before Codex's: the person's first prompt, rules and all, is in it; nothing after.
      const written = readFileSync(fork, 'utf8');
      assert.ok(written.includes('Always run npm test before you report that a change works.'));
      assert.ok(written.includes('We decided to keep the HttpError class unchanged.'));
      assert.ok(!written.includes('Now also stop retrying client errors'));
      assert.deepEqual(readFileSync(source), sourceBytes, "Codex's own rollout is untouched");
      await screenshot(page, `codex-compaction-redo-${suffix}`);
    });
  });
}
