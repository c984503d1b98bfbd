// A Codex CLI session in the panel, in real VS Code: the workspace's rollout (recorded with the real
// Codex CLI 0.169.0, see test/fixtures/codex/) is found by its cwd, its exact fill is shown with
// Codex's own auto-compact point, its compaction is listed, and the hooks line says Codex has none.
// The workspace also has an older Claude Code session: the newest is followed, the picker lists both.
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Frame, Page } from 'playwright-core';
import { encodeProjectDirName } from '../../src/sessions/claude-code/paths';
import { readCodexFill } from '../../src/sessions/codex';
import { runCommand, screenshot, startWorkbench, statusBarItem, webviewFrame, type Workbench } from '../support/workbench';

const FIXTURE = join(__dirname, '..', 'fixtures', 'codex', 'tally');
/** A Claude Code recording older than the Codex one (2026-11-22 vs 2026-11-23). */
const CLAUDE_FIXTURE = join(__dirname, '..', 'fixtures', 'claude-code', 'multi-prompt', 'projects');
const RECORDED_CWD = '/home/user/tally';

/** Every rollout file below `folder`. */
function rollouts(folder: string): string[] {
  return readdirSync(folder, { recursive: true, encoding: 'utf8' })
    .filter((path) => path.endsWith('.jsonl') && statSync(join(folder, path)).isFile())
    .map((path) => join(folder, path));
}

describe('a Codex CLI session in the panel, in code-server', { timeout: 240_000 }, () => {
  const root = mkdtempSync(join(tmpdir(), 'context-lens-codex-e2e-'));
  const workspace = join(root, 'tally');
  const codexHome = join(root, 'codex');
  let workbench: Workbench;
  let page: Page;
  let frame: Frame;

  before(async () => {
    mkdirSync(workspace, { recursive: true });
    cpSync(FIXTURE, codexHome, { recursive: true });
    // The recording's cwd is sanitised: point it at this workspace, as if Codex had run here.
    for (const path of rollouts(join(codexHome, 'sessions'))) writeFileSync(path, readFileSync(path, 'utf8').split(RECORDED_CWD).join(workspace));
    const claudeProject = join(root, 'claude', 'projects', encodeProjectDirName(workspace));
    cpSync(join(CLAUDE_FIXTURE, readdirSync(CLAUDE_FIXTURE)[0] ?? ''), claudeProject, { recursive: true });
    workbench = await startWorkbench({ workspace, theme: 'Default Dark Modern', claudeConfigDir: join(root, 'claude'), env: { CODEX_HOME: codexHome } });
    page = workbench.page;
    await runCommand(page, 'Context Lens: Open Panel');
    frame = await webviewFrame(page);
  });

  after(async () => {
    await workbench?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it("shows the exact fill from Codex's last token count, with Codex's own auto-compact point", async () => {
    const [rollout] = rollouts(join(codexHome, 'sessions'));
    assert.ok(rollout);
    const expected = await readCodexFill(rollout);
    assert.ok(expected.ok);
    const { usedTokens, windowTokens } = expected.value.fill;
    await frame
      .locator('[data-testid="fill-summary"]', { hasText: `${usedTokens.toLocaleString('en-US')} / ${windowTokens.toLocaleString('en-US')} tokens` })
      .waitFor({ timeout: 30_000 });
    assert.match(await statusBarItem(page).innerText(), new RegExp(`${Math.round((usedTokens / windowTokens) * 100)}%`));
    // Codex's point (model_auto_compact_token_limit in the recording's config.toml), named as Codex's.
    const mark = frame.locator('.gauge-label.mark-agent');
    // Named on the gauge in plain words (no "CX"), its point as a percentage.
    assert.match(await mark.innerText(), /^Codex CLI [\d.]+ %$/);
    assert.match((await mark.getAttribute('title')) ?? '', /^Codex CLI compacts by itself/);
  });

  it("lists Codex's own compaction, says Codex has no hooks, and names no other agent", async () => {
    await frame.locator('[data-testid="history-entry"][data-source="agent"]').first().waitFor({ timeout: 20_000 });
    assert.match(
      await frame.locator('[data-testid="agent-hooks"]').innerText(),
      /Codex CLI hooks: not connected — keep your constraints through Codex CLI's own compactions/,
    );
    const header = await frame.locator('header').innerText();
    assert.match(header, /The test in test\/sum\.test\.js fails/);
    // The map of what Compact… would do is there for Codex sessions too.
    await frame.locator('[data-testid="region-row"]').first().waitFor({ timeout: 30_000 });
    const panel = await frame.locator('#app').innerText();
    assert.doesNotMatch(panel, /Claude Code's auto-compact|Claude Code compacted/);
    // A bar per model call since the compaction, from the token_count Codex writes after each response.
    const plot = frame.locator('[data-testid="timeline-plot"]');
    await plot.waitFor({ timeout: 20_000 });
    const calls = Number(/Fill per API call: (\d+) calls/.exec((await plot.getAttribute('aria-label')) ?? '')?.[1]);
    assert.ok(calls >= 3, `bars for Codex's calls: ${calls}`);
    await screenshot(page, 'codex-panel-dark');
  });

  it('lists the sessions of both agents in Select Session…, each saying its agent', async () => {
    await runCommand(page, 'Context Lens: Select Session…');
    const rows = page.locator('.quick-input-widget .monaco-list-row');
    // The command palette's own rows stay until the session picker replaces them: wait for a session.
    await rows
      .filter({ hasText: /Codex CLI · / })
      .first()
      .waitFor({ timeout: 20_000 });
    const texts = await rows.allInnerTexts();
    assert.ok(
      texts.some((text) => /Codex CLI · gpt-5\.5/.test(text)),
      texts.join(' | '),
    );
    assert.ok(
      texts.some((text) => /Claude Code · claude-sonnet-5-5/.test(text)),
      texts.join(' | '),
    );
    await screenshot(page, 'codex-picker-dark');
    await page.keyboard.press('Escape');
  });
});

describe('a Codex session started after VS Code, in code-server', { timeout: 240_000 }, () => {
  const root = mkdtempSync(join(tmpdir(), 'context-lens-codex-later-'));
  const workspace = join(root, 'tally');
  const codexHome = join(root, 'codex');
  let workbench: Workbench;

  before(async () => {
    mkdirSync(workspace, { recursive: true });
    // Codex has never run here: not even its home exists yet.
    workbench = await startWorkbench({ workspace, theme: 'Default Dark Modern', claudeConfigDir: join(root, 'claude'), env: { CODEX_HOME: codexHome } });
  });

  after(async () => {
    await workbench?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('follows the rollout Codex starts in its dated folder, from the empty state', async () => {
    const page = workbench.page;
    await runCommand(page, 'Context Lens: Open Panel');
    const frame = await webviewFrame(page);
    await frame.locator('#app', { hasText: 'No agent session found for this workspace' }).waitFor({ timeout: 20_000 });
    // What `codex` does on its first run here: today's folder, a rollout whose session_meta names the workspace.
    const [source] = rollouts(join(FIXTURE, 'sessions'));
    assert.ok(source);
    const now = new Date();
    const day = join(codexHome, 'sessions', String(now.getFullYear()), String(now.getMonth() + 1).padStart(2, '0'), String(now.getDate()).padStart(2, '0'));
    mkdirSync(day, { recursive: true });
    const rollout = join(day, source.split('/').at(-1) ?? 'rollout.jsonl');
    writeFileSync(rollout, readFileSync(source, 'utf8').split(RECORDED_CWD).join(workspace));
    const expected = await readCodexFill(rollout);
    assert.ok(expected.ok);
    await frame
      .locator('[data-testid="fill-summary"]', { hasText: `${expected.value.fill.usedTokens.toLocaleString('en-US')} / ` })
      .waitFor({ timeout: 20_000 });
    assert.match(await frame.locator('header').innerText(), /The test in test\/sum\.test\.js fails/);
  });
});
