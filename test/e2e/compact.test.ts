// The whole loop in real VS Code on the recorded demo session: the gauge agrees with the CLI,
// settings move the marks live, the map says what Compact… would do, Compact… with a focus text
// previews fates and a diff, the preview goes out of date when the agent writes more, a keep or drop
// pressed after it computes it again (rows, total, item pane), the summary can be edited, Compact…
// offers the last focus, Apply writes exactly that preview as a fork next to the session, the panel
// then shows the fork only (our compaction once on its timeline), the picker tells fork from
// original, and hostile tool output stays inert text.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Frame, Page } from 'playwright-core';
import { closeDemoPanel, compactionProgressGone, compactWithFocus, openDemoPanel } from '../support/demoPanel';
import { appendToolRound, copyDemoWorkspace, prepareDemoSession, writeWorkspaceSettings } from '../support/demoSession';
import { runCommand, screenshot, type Workbench } from '../support/workbench';

const CLI = join(__dirname, '..', '..', 'dist', 'cli.js');
/** The demo is small next to 200k; a smaller window gives the engine something to compact. */
const WINDOW = 40_000;
/** Every string in JSONL records (a tool result's text sits deep in its record). */
function stringsOf(jsonl: string): string[] {
  const strings: string[] = [];
  const walk = (value: unknown): void => {
    if (typeof value === 'string') strings.push(value);
    else if (Array.isArray(value)) value.forEach(walk);
    else if (value && typeof value === 'object') Object.values(value).forEach(walk);
  };
  for (const line of jsonl.split('\n').filter(Boolean)) walk(JSON.parse(line));
  return strings;
}

const HOSTILE = '<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script> password=hunter2';

describe('Compact with focus, apply, settings and hostile content, in code-server', { timeout: 300_000 }, () => {
  let workbench: Workbench;
  let page: Page;
  let frame: Frame;
  // A copy of the workspace, because this suite writes its .vscode/settings.json.
  const workspace = copyDemoWorkspace();
  const demo = prepareDemoSession(workspace);
  /** The session id of the fork Apply wrote. */
  let fork = '';

  before(async () => {
    writeWorkspaceSettings(workspace, { 'contextLens.window.overrideTokens': WINDOW });
    ({ workbench, page, frame } = await openDemoPanel(workspace, demo, { theme: 'Default Dark Modern', maximise: true }));
  });

  /** Polls a condition (the webview's CSP rules out waitForFunction). */
  const until = async (check: () => Promise<boolean>, what: string, timeoutMs = 60_000): Promise<void> => {
    for (const deadline = Date.now() + timeoutMs; !(await check()); await page.waitForTimeout(200)) assert.ok(Date.now() < deadline, what);
  };

  after(async () => {
    await closeDemoPanel(workbench, workspace, demo);
  });

  it('shows the same used tokens as `ctxlens inspect --json`', async () => {
    const inspected = JSON.parse(
      execFileSync(process.execPath, [CLI, 'inspect', demo.transcript, '--json', '--window', String(WINDOW)], { encoding: 'utf8' }),
    ) as { used: { tokens: number } };
    const expected = `${inspected.used.tokens.toLocaleString('en-US')} / ${WINDOW.toLocaleString('en-US')} tokens`;
    await frame.locator('[data-testid="fill-summary"]', { hasText: expected }).waitFor({ timeout: 20_000 });
    await frame.locator('[data-testid="legend"]').waitFor();
    // The live map is the plan of Compact… with its defaults, not of an automatic compaction.
    await frame.locator('#region-map-title', { hasText: /^What Compact… would do: .+ → .+$/ }).waitFor({ timeout: 20_000 });
    await screenshot(page, 'gauge-dark');
  });

  it('shows each item with the tokens `inspect --json` and `compact --json` give it', async () => {
    const json = <T>(...args: string[]): T =>
      JSON.parse(
        execFileSync(process.execPath, [CLI, ...args, demo.transcript, '--json', '--window', String(WINDOW)], {
          encoding: 'utf8',
          maxBuffer: 64 * 1024 * 1024,
        }),
      ) as T;
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
    await frame.locator(`[data-testid="region-row"][data-id="${id + 1}"]`, { hasText: 'tool results' }).click();
    const detail = frame.locator('[data-testid="detail-text"]');
    await detail.waitFor({ timeout: 10_000 });
    const shown = await detail.innerText();
    assert.ok(
      shown.includes('<script>window.__pwned=2</script>'),
      `the item pane shows #${id + 1}: ${await frame.locator('[data-testid="detail-meta"]').innerText()} ${shown.slice(0, 300)}`,
    );
    assert.equal(await frame.locator('img[src="x"]').count(), 0);
    assert.equal(await frame.locator('#app script').count(), 0);
    assert.equal(await frame.evaluate('typeof window.__pwned'), 'undefined');
    await screenshot(page, 'hostile-inert-dark');
  });

  it('compacts with a focus text: a preview with fates and a diff, out of date once the agent writes more', async () => {
    await compactWithFocus(page, 'keep the retry decision');
    const preview = frame.locator('[data-testid="preview"]');
    await preview.waitFor({ timeout: 60_000 });
    assert.match(await preview.innerText(), /keep the retry decision/);
    // What a compaction drops is older: back to the top of the map.
    await frame.locator('[data-testid="region-map"]').press('Home');
    assert.ok(
      (await frame.locator('[data-testid="region-row"][data-fate="compacted"], [data-testid="region-row"][data-fate="dropped"]').count()) > 0,
      'something is compacted or dropped',
    );
    assert.ok((await frame.locator('[data-testid="diff-block"]').count()) > 0, 'the preview shows a diff');
    // The progress notification goes away once the preview is there.
    await compactionProgressGone(page);
    await screenshot(page, 'preview-dark');

    // Open in Diff Editor: VS Code's own diff editor on the two read-only texts.
    await frame.locator('[data-testid="preview-open-diff"]').click();
    const diffEditor = page.locator('.monaco-diff-editor');
    await diffEditor.first().waitFor({ timeout: 20_000 });
    // VS Code shows a diff's text once its diff is computed: the screenshot waits for the text.
    await page.locator('.monaco-diff-editor .view-line', { hasText: '=== #' }).first().waitFor({ timeout: 60_000 });
    await screenshot(page, 'diff-editor-dark');
    await runCommand(page, 'View: Close Editor');
    // Opening an editor gives the panel its normal height back: maximised again for the screenshots.
    if (((await page.locator('.part.panel').boundingBox())?.height ?? 0) < 400) await runCommand(page, 'View: Toggle Maximized Panel');

    // The agent answers once more after the preview: a fork from it would lack that turn, so the
    // preview says it is out of date and Apply waits until it is computed again.
    const stats = frame.locator('[data-testid="preview-headline"]');
    const stale = await stats.textContent();
    appendToolRound(demo.transcript, 'All 12 retry tests pass.');
    const outOfDate = frame.locator('[data-testid="preview-stale"]');
    await outOfDate.waitFor({ timeout: 15_000 });
    assert.match(await outOfDate.innerText(), /the agent wrote more/);
    assert.equal(await frame.locator('[data-testid="preview-apply"]').getAttribute('disabled'), '', 'Apply waits');
    await outOfDate.scrollIntoViewIfNeeded();
    await screenshot(page, 'preview-stale-dark');
    await frame.locator('[data-testid="preview-refresh"]').click();
    await outOfDate.waitFor({ state: 'detached', timeout: 60_000 });
    // The fresh preview counts the new turn too (the webview's CSP rules out waitForFunction).
    await until(async () => (await stats.textContent()) !== stale, 'a fresh preview');
  });

  it('computes the preview again when an item is kept or dropped after it: rows, total and item pane follow, and Apply writes the kept item', async () => {
    const map = frame.locator('[data-testid="region-map"]');
    const stats = frame.locator('[data-testid="preview-headline"]');
    const choices = frame.locator('[data-testid="preview-choices"]');
    const meta = frame.locator('[data-testid="detail-meta"]');
    const row = (id: number) => frame.locator(`[data-testid="region-row"][data-id="${id}"]`);
    // Tool results only: the big file reads the preview summarises away are near the top.
    await frame.locator('.region-filter input').fill('kind:tool_result');
    await map.press('Home');
    let kept = -1;
    for (const candidate of await frame.locator('[data-testid="region-row"][data-fate="dropped"]').all()) {
      if (Number((await candidate.locator('.col-tokens').innerText()).split('→')[0]?.replace(/[^\d]/g, '')) > 5_000) {
        kept = Number(await candidate.getAttribute('data-id'));
        break;
      }
    }
    assert.ok(kept >= 0, 'the preview drops a big tool result');
    await row(kept).click();
    await meta.filter({ hasText: 'dropped' }).waitFor({ timeout: 10_000 });
    const summaryText = (await frame.locator('[data-testid="summary-raw"]').textContent()) ?? '';
    // A line of the item that only keeping it can bring into the fork: in no other record, nor the summary.
    const records = readFileSync(demo.transcript, 'utf8').split('\n').filter(Boolean).map(stringsOf);
    const line = (await frame.locator('[data-testid="detail-text"]').innerText())
      .split('\n')
      .map((text) => text.trim())
      .find(
        (text) =>
          /^[\t\x20-\x7e]{30,}$/.test(text) &&
          !summaryText.includes(text) &&
          records.filter((strings) => strings.some((value) => value.includes(text))).length === 1,
      );
    assert.ok(line, `a line of #${kept} found nowhere else`);

    let before = await stats.textContent();
    await map.press('k');
    await row(kept).and(frame.locator('[data-fate="preserved"]')).waitFor({ timeout: 30_000 });
    await until(async () => (await stats.textContent()) !== before, 'the total follows the keep');
    await meta.filter({ hasText: 'preserved' }).filter({ hasText: 'your choice (keep)' }).waitFor({ timeout: 10_000 });
    assert.match(await choices.innerText(), new RegExp(`Your choices: kept 1 \\(#${kept}\\)`));

    // A drop of an item the preview keeps: the newest tool result, at the end of the map.
    await map.press('End');
    const dropped = Number(await frame.locator('[data-testid="region-row"][data-fate="preserved"]').last().getAttribute('data-id'));
    await row(dropped).click();
    await meta.filter({ hasText: 'preserved' }).waitFor({ timeout: 10_000 });
    before = await stats.textContent();
    await map.press('d');
    await row(dropped).and(frame.locator('[data-fate="dropped"]')).waitFor({ timeout: 30_000 });
    await until(async () => (await stats.textContent()) !== before, 'the total follows the drop');
    await meta.filter({ hasText: 'dropped' }).filter({ hasText: 'your choice (drop)' }).waitFor({ timeout: 10_000 });
    assert.match(await choices.innerText(), new RegExp(`Your choices: kept 1 \\(#${kept}\\) · dropped 1 \\(#${dropped}\\)`));
    assert.equal(await frame.locator('[data-testid="preview-stale"]').count(), 0);
    await frame.locator('.region-filter input').fill('');
    await choices.scrollIntoViewIfNeeded();
    await screenshot(page, 'preview-choices-dark');
    await runCommand(page, 'Preferences: Toggle between Light/Dark Themes');
    await page.waitForTimeout(1_000);
    await screenshot(page, 'preview-choices-light');
    await runCommand(page, 'Preferences: Toggle between Light/Dark Themes');

    // The summary as the person writes it is what the fork gets.
    const EDITED = 'E2E: the retry decision was written down by hand.';
    await frame.locator('[data-testid="summary-edit-start"]').click();
    const editor = frame.locator('[data-testid="summary-edit"]');
    await editor.fill(`${await editor.inputValue()}\n- ${EDITED}`);
    await editor.scrollIntoViewIfNeeded();
    assert.equal(await frame.locator('[data-testid="preview-apply"]').getAttribute('disabled'), '', 'Apply waits for the edit to be used');
    await screenshot(page, 'summary-edit-dark');
    await frame.locator('[data-testid="summary-edit-use"]').click();
    await frame.locator('[data-testid="summary-edited"]').waitFor({ timeout: 30_000 });
    assert.ok((await frame.locator('[data-testid="summary-raw"]').textContent())?.includes(EDITED));

    // Compact… offers the focus given last for this session.
    await runCommand(page, 'Context Lens: Compact…');
    const input = page.locator('.quick-input-widget input');
    await input.waitFor({ state: 'visible' });
    assert.equal(await input.inputValue(), 'keep the retry decision');
    await input.press('Escape');
    await input.waitFor({ state: 'hidden' });

    const forks = () => readdirSync(demo.projectDir).filter((name) => name.endsWith('.jsonl'));
    const beforeFiles = forks();
    await frame.locator('[data-testid="preview-apply"]').click();
    await until(async () => forks().length > beforeFiles.length, 'Apply writes the fork', 30_000);
    const afterFiles = forks();
    assert.equal(afterFiles.length, beforeFiles.length + 1, 'one new session file');
    fork = afterFiles.find((name) => !beforeFiles.includes(name))!.replace('.jsonl', '');
    const written = stringsOf(readFileSync(join(demo.projectDir, `${fork}.jsonl`), 'utf8'));
    assert.ok(
      written.some((text) => text.includes(line)),
      `the kept #${kept} is in the fork`,
    );
    assert.ok(
      written.some((text) => text.includes(EDITED)),
      'the edited summary is in the fork',
    );
    // One compact boundary in the fork's file, the one Apply wrote.
    assert.equal(
      readFileSync(join(demo.projectDir, `${fork}.jsonl`), 'utf8')
        .split('\n')
        .filter((record) => record.includes('"compact_boundary"')).length,
      1,
    );
    await compactionProgressGone(page);
  });

  it("follows the fork after Apply: everything shown is the fork's, with our compaction once on its timeline", async () => {
    // The panel follows the fork (the workspace's newest session): labelled as a fork, its fill the
    // count the preview promised, as an estimate until Claude Code answers.
    await frame.locator('[data-testid="fork-of"]').waitFor({ timeout: 20_000 });
    await frame.locator('.gauge-summary', { hasText: '(estimate)' }).waitFor({ timeout: 20_000 });
    // The original's preview, its open item and its map go: the map is the fork's own plan.
    await frame.locator('[data-testid="preview"]').waitFor({ state: 'detached', timeout: 20_000 });
    await frame.locator('#region-map-title', { hasText: /^What Compact… would do/ }).waitFor({ timeout: 20_000 });
    assert.equal(await frame.locator('[data-testid="detail-text"]').count(), 0, 'no item of the original stays open');
    // The title once, after "fork of", and on one line.
    const header = frame.locator('header h1');
    const title = await frame.locator('[data-testid="session-title"]').innerText();
    assert.equal((await header.innerText()).split(title.replace(/…$/, '')).length - 1, 1, `the title once: ${await header.innerText()}`);
    const oneLine = (await frame.locator('[data-testid="session-title"]').boundingBox())?.height ?? 20;
    assert.ok(((await header.boundingBox())?.height ?? 0) < oneLine * 1.9, 'the header title does not wrap');
    // Our compaction once: one flag, one line under the chart, and it is no call of the fork.
    await frame.locator('[data-testid="timeline-flag-ours"]').first().waitFor({ timeout: 20_000 });
    assert.equal(await frame.locator('[data-testid="timeline-flag-ours"]').count(), 1);
    const events = await frame.locator('[data-testid="timeline-events"] li').allInnerTexts();
    assert.equal(events.length, 1, events.join(' | '));
    assert.match(events[0] ?? '', /Context Lens compacted — [\d,]+ → [\d,]+ tokens, "keep the retry decision"$/);
    assert.doesNotMatch(events[0] ?? '', /Context Lens compacted.*Context Lens compacted|\d{5}/);
    // History: ours once, as ours, with the fork it wrote and a time.
    const ours = frame.locator('[data-testid="history-entry"][data-source="contextLens"]');
    await ours.first().waitFor({ timeout: 20_000 });
    assert.equal(await ours.count(), 1);
    assert.ok((await ours.innerText()).includes(fork), 'the entry names the fork');
    assert.equal(
      await frame.locator('[data-testid="history-entry"][data-source="agent"]', { hasText: 'when asked' }).count(),
      0,
      "our compaction is not listed as the agent's",
    );
    await frame.locator('header').scrollIntoViewIfNeeded();
    await screenshot(page, 'fork-followed-dark');
    await frame.locator('[data-testid="timeline-section"]').scrollIntoViewIfNeeded();
    await screenshot(page, 'fork-timeline-dark');
    await runCommand(page, 'Preferences: Toggle between Light/Dark Themes');
    await page.waitForTimeout(1_000);
    await frame.locator('header').scrollIntoViewIfNeeded();
    await screenshot(page, 'fork-followed-light');
    await frame.locator('[data-testid="timeline-section"]').scrollIntoViewIfNeeded();
    await screenshot(page, 'fork-timeline-light');
    await runCommand(page, 'Preferences: Toggle between Light/Dark Themes');
  });

  it('tells the fork from its original in Select Session…, and the original counts no call of the fork', async () => {
    await runCommand(page, 'Context Lens: Select Session…');
    const rows = page.locator('.quick-input-widget .monaco-list-row');
    // "Fork ·" leads the label, before the title the original shares.
    const forkRow = rows.filter({ hasText: 'Fork · ' }).first();
    await forkRow.waitFor({ timeout: 20_000 });
    assert.match(await forkRow.innerText(), /fork of “/);
    await screenshot(page, 'fork-picker-dark');
    await page.keyboard.press('Escape');
    await runCommand(page, 'Preferences: Toggle between Light/Dark Themes');
    await page.waitForTimeout(1_000);
    await runCommand(page, 'Context Lens: Select Session…');
    await forkRow.waitFor({ timeout: 20_000 });
    await screenshot(page, 'fork-picker-light');
    const original = rows.filter({ hasNotText: 'Fork · ' }).filter({ hasText: 'Claude Code' }).first();
    await original.click();
    await frame.locator('[data-testid="fork-of"]').waitFor({ state: 'detached', timeout: 20_000 });
    await frame.locator('.gauge-summary', { hasText: '(exact' }).waitFor({ timeout: 20_000 });
    // The original was not compacted: its timeline has no compaction of ours, its History names the fork.
    assert.equal(await frame.locator('[data-testid="timeline-flag-ours"]').count(), 0);
    const ours = frame.locator('[data-testid="history-entry"][data-source="contextLens"]');
    await ours.first().waitFor({ timeout: 20_000 });
    // Dated unless today (the recording's own compactions are from another day), newest first.
    const times = await frame
      .locator('[data-testid="history-entry"] time')
      .evaluateAll((nodes) => nodes.map((node) => [node.getAttribute('datetime') ?? '', node.textContent ?? '']));
    const stamps = times.map(([iso]) => Date.parse(iso ?? ''));
    assert.deepEqual(
      stamps,
      [...stamps].sort((a, b) => b - a),
      'newest first',
    );
    for (const [iso, text] of times) {
      const today = new Date(iso ?? '').toDateString() === new Date().toDateString();
      assert.match(text ?? '', today ? /^\d\d:\d\d$/ : /^[A-Z][a-z]{2} \d{1,2}( \d{4})?, \d\d:\d\d$/, `${iso} shown as ${text}`);
    }
    // An item with second thoughts, open in the item pane: the wavy underline stays on its own line.
    const map = frame.locator('[data-testid="region-map"]');
    const marked = frame.locator('[data-testid="region-row"]:has(.col-markers .badge)');
    // A row on screen (the map recycles rows: one scrolled to would show another item by then).
    const onScreen = async (): Promise<string | null> => {
      const view = await frame.locator('.region-scroller').boundingBox();
      for (const row of await marked.all()) {
        const box = await row.boundingBox();
        if (view && box && box.y >= view.y && box.y + box.height <= view.y + view.height) return row.getAttribute('data-id');
      }
      return null;
    };
    let id: string | null = null;
    for (const key of ['Home', 'PageDown', 'PageDown', 'PageDown', 'PageDown', 'End']) {
      await map.press(key);
      await page.waitForTimeout(300);
      if ((id = await onScreen()) !== null) break;
    }
    assert.ok(id !== null, 'the original has an item with second thoughts');
    await frame.locator(`[data-testid="region-row"][data-id="${id}"]`).click();
    await frame.locator('[data-testid="detail-meta"]', { hasText: 'second thought' }).waitFor({ timeout: 10_000 });
    await frame.locator('[data-testid="marker"]').first().waitFor({ timeout: 10_000 });
    assert.doesNotMatch(await frame.locator('#app').innerText(), /epistemic/i);
    for (const shade of ['light', 'dark']) {
      if (shade === 'dark') {
        await runCommand(page, 'Preferences: Toggle between Light/Dark Themes');
        await page.waitForTimeout(1_000);
      }
      await frame.locator('[data-testid="timeline-section"]').scrollIntoViewIfNeeded();
      await screenshot(page, `original-after-apply-${shade}`);
      await frame.locator('[data-testid="history-section"]').scrollIntoViewIfNeeded();
      await screenshot(page, `history-dated-${shade}`);
      await frame.locator('[data-testid="marker"]').first().scrollIntoViewIfNeeded();
      await screenshot(page, `second-thoughts-${shade}`);
    }
  });
});
