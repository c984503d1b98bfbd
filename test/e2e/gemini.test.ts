// A Gemini CLI session in the panel, in real VS Code: the workspace's chat (recorded with the real
// Gemini CLI 0.61, see test/fixtures/gemini/recorded/) is found through projects.json, its exact fill
// (the last Gemini reply's tokens.input) is shown with Gemini's own compression point
// (model.compressionThreshold × the model's limit), the hooks line says Gemini has none, the picker
// lists it, and Preview Compaction works on it. No Claude Code or Codex session exists here.
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Frame, Page } from 'playwright-core';
import { geminiAdapter } from '../../src/sessions/gemini/adapter';
import { compactionProgressGone } from '../support/demoPanel';
import { runCommand, screenshot, startWorkbench, statusBarItem, webviewFrame, type Workbench } from '../support/workbench';

const FIXTURE = join(__dirname, '..', 'fixtures', 'gemini', 'recorded', 'tools', 'gemini');
const RECORDED_CWD = '/home/user/payments';
const RECORDED_GEMINI_DIR = '/home/user/.gemini';
/** Set in the copied settings.json: Gemini's default is 0.5, another value shows it is read. */
const THRESHOLD = 0.7;

/** Fails with the words around any mention of another agent, which would read wrong for Gemini. */
function assertNamesNoOtherAgent(text: string, where: string): void {
  const found = /Claude Code|Codex/.exec(text);
  assert.equal(found, null, `${where} names another agent: …${text.slice(Math.max(0, (found?.index ?? 0) - 120), (found?.index ?? 0) + 120)}…`);
}

describe('a Gemini CLI session in the panel, in code-server', { timeout: 300_000 }, () => {
  const root = mkdtempSync(join(tmpdir(), 'context-lens-gemini-e2e-'));
  const workspace = join(root, 'payments');
  const geminiCliHome = join(root, 'gemini-home');
  const geminiDir = join(geminiCliHome, '.gemini');
  const chats = join(geminiDir, 'tmp', 'payments', 'chats');
  let chat: string;
  let workbench: Workbench;
  let page: Page;
  let frame: Frame;

  before(async () => {
    mkdirSync(workspace, { recursive: true });
    cpSync(FIXTURE, geminiDir, { recursive: true });
    // The recording's paths are sanitised: point projects.json and the chat's session context at
    // this workspace and this .gemini folder, as if Gemini had run here.
    const relocate = (path: string) =>
      writeFileSync(path, readFileSync(path, 'utf8').split(RECORDED_GEMINI_DIR).join(geminiDir).split(RECORDED_CWD).join(workspace));
    relocate(join(geminiDir, 'projects.json'));
    const [name] = readdirSync(chats).filter((file) => file.endsWith('.jsonl'));
    assert.ok(name, 'the fixture has a chat');
    chat = join(chats, name);
    relocate(chat);
    const settingsPath = join(geminiDir, 'settings.json');
    const settings = JSON.parse(readFileSync(settingsPath, 'utf8')) as Record<string, unknown>;
    writeFileSync(settingsPath, JSON.stringify({ ...settings, model: { compressionThreshold: THRESHOLD } }, null, 2));
    // Empty homes for the other agents, so nothing of this machine's own sessions is read.
    workbench = await startWorkbench({
      workspace,
      theme: 'Default Dark Modern',
      claudeConfigDir: join(root, 'claude'),
      env: { GEMINI_CLI_HOME: geminiCliHome, CODEX_HOME: join(root, 'codex') },
    });
    page = workbench.page;
    await runCommand(page, 'Context Lens: Open Panel');
    frame = await webviewFrame(page);
  });

  after(async () => {
    await workbench?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it("shows the chat's title and exact fill, with Gemini's compression point from model.compressionThreshold", async () => {
    const info = await geminiAdapter.readSessionInfo(chat);
    assert.ok(info.ok);
    const live = await geminiAdapter.readLiveContext(info.value);
    assert.ok(live.ok);
    const { usedTokens, windowTokens, agentAutoCompactTokens } = live.value.fill;
    // The exact fill is what Gemini sent last: the last gemini record's tokens.input.
    const lastInput = [...readFileSync(chat, 'utf8').matchAll(/"tokens":\{"input":(\d+)/g)].at(-1)?.[1];
    assert.equal(usedTokens, Number(lastInput));
    assert.equal(agentAutoCompactTokens, Math.floor(THRESHOLD * windowTokens));
    await frame
      .locator('[data-testid="fill-summary"]', { hasText: `${usedTokens.toLocaleString('en-US')} / ${windowTokens.toLocaleString('en-US')} tokens` })
      .waitFor({ timeout: 30_000 });
    assert.match(await statusBarItem(page).innerText(), new RegExp(`${Math.round((usedTokens / windowTokens) * 100)}%`));
    assert.match(await frame.locator('header').innerText(), /Rule: every change needs a test\. Fix the rounding in src\/fees\.js/);
    const mark = frame.locator('.gauge-label.mark-agent');
    const percent = ((agentAutoCompactTokens / windowTokens) * 100).toFixed(1);
    assert.equal(await mark.innerText(), `Gemini CLI ${percent} %`);
    assert.match(
      (await mark.getAttribute('title')) ?? '',
      new RegExp(`^Gemini CLI compacts by itself at about ${percent.replace('.', '\\.')} % of the window\\. Set by model\\.compressionThreshold`),
    );
  });

  it('says Gemini CLI has no compaction hooks and names no other agent', async () => {
    const hooks = frame.locator('[data-testid="agent-hooks"]');
    await hooks.waitFor({ timeout: 20_000 });
    assert.match(await hooks.innerText(), /Gemini CLI hooks: not connected/);
    await frame.locator('[data-testid="region-row"]').first().waitFor({ timeout: 30_000 });
    assertNamesNoOtherAgent(await frame.locator('#app').innerText(), 'the panel');
    await screenshot(page, 'gemini-panel-dark');
    await runCommand(page, 'Preferences: Toggle between Light/Dark Themes');
    await page.locator('.monaco-workbench.vs:not(.vs-dark)').waitFor({ timeout: 20_000 });
    await frame.locator('body.vscode-light').waitFor({ timeout: 20_000 });
    await screenshot(page, 'gemini-panel-light');
    await runCommand(page, 'Preferences: Toggle between Light/Dark Themes');
    await frame.locator('body.vscode-dark').waitFor({ timeout: 20_000 });
  });

  it('lists the chat in Select Session… as a Gemini CLI session', async () => {
    await runCommand(page, 'Context Lens: Select Session…');
    const rows = page.locator('.quick-input-widget .monaco-list-row');
    // The command palette's own rows stay until the session picker replaces them: wait for a session.
    await rows
      .filter({ hasText: /Gemini CLI/ })
      .first()
      .waitFor({ timeout: 20_000 });
    const texts = await rows.allInnerTexts();
    assert.ok(
      texts.some((text) => /Gemini CLI · gemini-3\.8-flash/.test(text)),
      texts.join(' | '),
    );
    assert.ok(!texts.some((text) => /Claude Code · |Codex · /.test(text)), texts.join(' | '));
    await screenshot(page, 'gemini-picker-dark');
    await page.keyboard.press('Escape');
  });

  it('previews a compaction of the Gemini chat', async () => {
    const started = Date.now();
    await runCommand(page, 'Context Lens: Preview Compaction');
    const preview = frame.locator('[data-testid="preview"]');
    await preview.waitFor({ timeout: 90_000 });
    await frame.locator('[data-testid="preview-headline"]').waitFor({ timeout: 10_000 });
    console.log(`preview shown after ${Date.now() - started} ms: ${await frame.locator('[data-testid="preview-headline"]').innerText()}`);
    assertNamesNoOtherAgent(await preview.innerText(), 'the preview');
    // The progress notification goes away once the preview is there; the preview sits below the gauge.
    await compactionProgressGone(page);
    await frame.locator('[data-testid="preview-headline"]').scrollIntoViewIfNeeded();
    await screenshot(page, 'gemini-preview-dark');
  });
});
