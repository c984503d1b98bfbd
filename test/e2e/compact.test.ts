// The whole loop in real VS Code on the recorded demo session: the gauge agrees with the CLI,
// settings move the marks live, the map says what Compact… would do, Compact… with a focus text
// previews fates and a diff, Apply refuses a preview the session has moved on from and writes a fork
// next to the session from a fresh one, and hostile tool output stays inert text.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Frame, Page } from 'playwright-core';
import { appendResponse, appendToolRound, copyDemoWorkspace, prepareDemoSession, writeWorkspaceSettings } from '../support/demoSession';
import { runCommand, screenshot, startWorkbench, webviewFrame, type Workbench } from '../support/workbench';

const CLI = join(__dirname, '..', '..', 'dist', 'cli.js');
/** The demo is small next to 200k; a smaller window gives the engine something to compact. */
const WINDOW = 40_000;
const HOSTILE = '<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script> password=hunter2';

describe('Compact with focus, apply, settings and hostile content, in code-server', { timeout: 300_000 }, () => {
  let workbench: Workbench;
  let page: Page;
  let frame: Frame;
  // A copy of the workspace, because this suite writes its .vscode/settings.json.
  const workspace = copyDemoWorkspace();
  const demo = prepareDemoSession(workspace);

  before(async () => {
    writeWorkspaceSettings(workspace, { 'contextLens.window.overrideTokens': WINDOW });
    workbench = await startWorkbench({ workspace, theme: 'Default Dark Modern', claudeConfigDir: demo.claudeConfigDir });
    page = workbench.page;
    await runCommand(page, 'Context Lens: Open Panel');
    // A maximised panel shows the whole map and preview in the screenshots.
    await runCommand(page, 'View: Toggle Maximized Panel');
    frame = await webviewFrame(page);
  });

  after(async () => {
    await workbench?.close();
    rmSync(demo.claudeConfigDir, { recursive: true, force: true });
    rmSync(workspace, { recursive: true, force: true });
  });

  it('shows the same used tokens as `context-lens inspect --json`', async () => {
    const inspected = JSON.parse(execFileSync(process.execPath, [CLI, 'inspect', demo.transcript, '--json', '--window', String(WINDOW)], { encoding: 'utf8' })) as { used: { tokens: number } };
    const expected = `${inspected.used.tokens.toLocaleString('en-US')} / ${WINDOW.toLocaleString('en-US')} tokens`;
    await frame.locator('[data-testid="fill-summary"]', { hasText: expected }).waitFor({ timeout: 20_000 });
    await frame.locator('[data-testid="legend"]').waitFor();
    // The live map is the plan of Compact… with its defaults, not of an automatic compaction.
    await frame.locator('#region-map-title', { hasText: /^What Compact… would do: .+ → .+$/ }).waitFor({ timeout: 20_000 });
    await screenshot(page, 'gauge-dark');
  });

  it('shows each item with the tokens `inspect --json` and `compact --json` give it', async () => {
    const json = <T>(...args: string[]): T => JSON.parse(execFileSync(process.execPath, [CLI, ...args, demo.transcript, '--json', '--window', String(WINDOW)], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 })) as T;
    const inspected = new Map(json<{ regions: { id: number; tokens: number }[] }>('inspect').regions.map((region) => [region.id, region.tokens]));
    const compacted = new Map(json<{ regions: { id: number; tokensBefore: number }[] }>('compact').regions.map((region) => [region.id, region.tokensBefore]));
    const map = frame.locator('[data-testid="region-map"]');
    await map.press('Home');
    // The rows the map shows at its top and at its end (virtualised: only what is on screen exists).
    const rows: [number, number][] = [];
    for (const key of ['Home', 'End']) {
      await map.press(key);
      await page.waitForTimeout(300);
      for (const row of await frame.locator('[data-testid="region-row"]').all()) {
        const id = Number(await row.getAttribute('data-id'));
        const before = (await row.locator('.col-tokens').innerText()).split('→')[0]?.replace(/[^\d]/g, '') ?? '';
        rows.push([id, Number(before)]);
      }
    }
    assert.ok(rows.length >= 10, `${rows.length} rows read`);
    for (const [id, tokens] of rows) {
      assert.equal(tokens, inspected.get(id), `#${id}: panel ${tokens}, inspect ${inspected.get(id)}`);
      assert.equal(tokens, compacted.get(id), `#${id}: panel ${tokens}, compact ${compacted.get(id)}`);
    }
    await map.press('Home');
  });

  it('moves the trigger mark when the setting changes', async () => {
    const mark = frame.locator('[data-testid="gauge-mark-trigger"]');
    // In a 40k window Claude Code's own point lies below our target: no trigger of ours can come first,
    // so the setting stands and the gauge says why.
    assert.equal(await mark.getAttribute('data-percent'), '85');
    assert.match(await frame.locator('[data-testid="threshold-notes"]').innerText(), /Claude Code compacts by itself at [\d.]+ %, below our target/);
    writeWorkspaceSettings(workspace, { 'contextLens.window.overrideTokens': WINDOW, 'contextLens.trigger.thresholdPercent': 70 });
    await frame.locator('[data-testid="gauge-mark-trigger"][data-percent="70"]').waitFor({ timeout: 15_000 });
  });

  it('keeps hostile tool output as inert text in the item detail', async () => {
    appendToolRound(demo.transcript, HOSTILE);
    const row = frame.locator('[data-testid="region-row"]', { hasText: 'untrusted.html' }).first();
    // The map opens at its top; the new item is at the end (End selects the last row and scrolls there).
    for (const deadline = Date.now() + 20_000; (await row.count()) === 0; await page.waitForTimeout(300)) {
      assert.ok(Date.now() < deadline, 'the appended tool round reaches the map');
      await frame.locator('[data-testid="region-map"]').press('End');
    }
    // The tool result is the row after its call.
    const id = Number(await row.getAttribute('data-id'));
    await frame.locator(`[data-testid="region-row"][data-id="${id + 1}"]`).click();
    const detail = frame.locator('[data-testid="detail-text"]');
    await detail.waitFor({ timeout: 10_000 });
    assert.ok((await detail.innerText()).includes('<script>window.__pwned=2</script>'));
    assert.equal(await frame.locator('img[src="x"]').count(), 0);
    assert.equal(await frame.locator('#app script').count(), 0);
    assert.equal(await frame.evaluate('typeof window.__pwned'), 'undefined');
    await screenshot(page, 'hostile-inert-dark');
  });

  it('compacts with a focus text: preview with fates and a diff, then Apply writes a fork', async () => {
    await runCommand(page, 'Context Lens: Compact…');
    const input = page.locator('.quick-input-widget input');
    await input.waitFor({ state: 'visible' });
    await input.fill('keep the retry decision');
    await input.press('Enter');
    const preview = frame.locator('[data-testid="preview"]');
    await preview.waitFor({ timeout: 60_000 });
    assert.match(await preview.innerText(), /keep the retry decision/);
    // What a compaction drops is older: back to the top of the map.
    await frame.locator('[data-testid="region-map"]').press('Home');
    assert.ok((await frame.locator('[data-testid="region-row"][data-fate="compacted"], [data-testid="region-row"][data-fate="dropped"]').count()) > 0, 'something is compacted or dropped');
    assert.ok((await frame.locator('[data-testid="diff-block"]').count()) > 0, 'the preview shows a diff');
    // The progress notification goes away once the preview is there.
    await page.locator('.notifications-toasts', { hasText: 'Compacting with' }).waitFor({ state: 'hidden', timeout: 15_000 });
    await screenshot(page, 'preview-dark');

    // Open in Diff Editor: VS Code's own diff editor on the two read-only texts.
    await frame.locator('[data-testid="preview-open-diff"]').click();
    const diffEditor = page.locator('.monaco-diff-editor');
    await diffEditor.first().waitFor({ timeout: 20_000 });
    // The first Markdown document of a window waits for VS Code to activate extensions for it (the
    // status bar says "Activating Extensions..."): the diff stayed empty 4 s with two busy cores
    // beside the test, and over 10 s in one full run. The screenshot waits for the text.
    await page.locator('.monaco-diff-editor .view-line', { hasText: '=== #' }).first().waitFor({ timeout: 60_000 });
    await screenshot(page, 'diff-editor-dark');
    await runCommand(page, 'View: Close Editor');

    // The agent answers once more after the preview: a fork from it would lack that turn.
    const forks = () => readdirSync(demo.projectDir).filter((name) => name.endsWith('.jsonl'));
    const before = forks();
    const stats = frame.locator('[data-testid="preview-headline"]');
    const stale = await stats.textContent();
    appendResponse(demo.transcript, 18_000);
    await frame.locator('[data-testid="preview-apply"]').click();
    const movedOn = page.locator('.notification-toast', { hasText: 'The session moved on since this preview' });
    await movedOn.waitFor({ timeout: 15_000 });
    assert.deepEqual(forks(), before, 'no fork from a stale preview');
    await movedOn.locator('.monaco-button', { hasText: 'Compact… Again' }).click();
    await input.waitFor({ state: 'visible' });
    assert.equal(await input.inputValue(), 'keep the retry decision');
    await input.press('Enter');
    // The fresh preview counts the new turn too (the webview's CSP rules out waitForFunction).
    for (const deadline = Date.now() + 60_000; (await stats.textContent()) === stale; await page.waitForTimeout(200)) assert.ok(Date.now() < deadline, 'a fresh preview');

    await frame.locator('[data-testid="preview-apply"]').click();
    await frame.locator('[data-testid="preview-applied"]').waitFor({ timeout: 30_000 });
    const afterFiles = forks();
    assert.equal(afterFiles.length, before.length + 1, 'one new session file');
    const applied = await frame.locator('[data-testid="preview-applied"]').innerText();
    const fork = afterFiles.find((name) => !before.includes(name))!.replace('.jsonl', '');
    assert.ok(applied.includes(fork), `the panel names the fork ${fork}`);
    await screenshot(page, 'applied-dark');

    // The panel then follows the fork (the workspace's newest session): labelled as a fork, its fill
    // the count the preview promised, as an estimate until Claude Code answers, and our compaction.
    await frame.locator('[data-testid="fork-of"]').waitFor({ timeout: 20_000 });
    // The fork's fill is read just after the switch: the first state can still say "waiting".
    await frame.locator('.gauge-summary', { hasText: '(estimate)' }).waitFor({ timeout: 20_000 });
    await frame.locator('[data-testid="history-entry"][data-source="contextLens"]').first().waitFor({ timeout: 20_000 });
    assert.equal(await frame.locator('[data-testid="history-entry"][data-source="agent"]', { hasText: 'manual' }).count(), 0, 'our compaction is not listed as the agent\'s');
    await frame.locator('[data-testid="fork-of"]').scrollIntoViewIfNeeded();
    await screenshot(page, 'fork-followed-dark');
  });
});
