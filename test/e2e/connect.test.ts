// Connect Claude Code in real VS Code: the panel says whether it is connected and offers Connect,
// the proposed change is shown in the diff editor and asked about first, the person's own settings
// survive, the hook commands it writes really run and what they did shows in the History, and
// Disconnect gives the file back as it was.
import assert from 'node:assert/strict';
import { execSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import { appendCompaction, copyDemoWorkspace, prepareDemoSession, writeWorkspaceSettings } from '../support/demoSession';
import { runCommand, screenshot, startWorkbench, webviewFrame, type Workbench } from '../support/workbench';

const THEIRS = {
  permissions: { allow: ['Bash(npm test:*)'] },
  hooks: { Stop: [{ hooks: [{ type: 'command', command: 'echo done' }] }] },
  statusLine: { type: 'command', command: 'echo my-own-status' },
};

interface Settings {
  hooks: Record<string, { matcher?: string; hooks: { command: string }[] }[]>;
  statusLine: { command: string };
}

/** Answers the modal question VS Code shows with `button`, once it is there. */
async function answerDialog(page: Page, question: RegExp, button: string): Promise<void> {
  const dialog = page.locator('.monaco-dialog-box', { hasText: question });
  await dialog.waitFor({ timeout: 20_000 });
  await dialog.locator('.monaco-button', { hasText: new RegExp(`^${button}$`) }).click();
  await dialog.waitFor({ state: 'hidden', timeout: 10_000 });
}

/** The panel's Claude Code line, once it shows `state`. */
async function hooksLine(page: Page, state: 'connected' | 'partial' | 'disconnected'): Promise<Locator> {
  await runCommand(page, 'Context Lens: Open Panel');
  const line = (await webviewFrame(page)).locator(`[data-testid="agent-hooks"][data-state="${state}"]`);
  await line.waitFor({ timeout: 20_000 });
  return line;
}

async function waitFor<T>(read: () => T, ready: (value: T) => boolean, what: string): Promise<T> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const value = read();
    if (ready(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe('Connect and Disconnect Claude Code, in code-server', { timeout: 240_000 }, () => {
  let workbench: Workbench;
  let page: Page;
  const workspace = copyDemoWorkspace();
  const demo = prepareDemoSession(workspace);
  const settingsFile = join(workspace, '.claude', 'settings.local.json');
  const read = () => readFileSync(settingsFile, 'utf8');
  // Where the hooks log their runs, for the extension and for the hooks run below alike.
  const stateHome = join(workspace, '.state');
  const sessionId = demo.transcript.slice(demo.transcript.lastIndexOf('/') + 1, -'.jsonl'.length);
  /** Runs a hook command exactly as Claude Code would: through a shell, hook JSON on stdin. */
  const runHook = (command: string, input: Record<string, unknown>): string =>
    execSync(command, {
      input: JSON.stringify({ session_id: sessionId, transcript_path: demo.transcript, cwd: workspace, ...input }),
      encoding: 'utf8',
      shell: '/bin/sh',
      env: { ...process.env, XDG_STATE_HOME: stateHome },
    });
  let connected: Settings | undefined;

  before(async () => {
    writeWorkspaceSettings(workspace, {
      'contextLens.preserve.pinnedConstraints': ['Never modify config/prod.yaml.'],
      'contextLens.compaction.focus': 'the retry rework',
    });
    mkdirSync(join(workspace, '.claude'), { recursive: true });
    writeFileSync(settingsFile, JSON.stringify(THEIRS, null, 2));
    workbench = await startWorkbench({ workspace, theme: 'Default Dark Modern', claudeConfigDir: demo.claudeConfigDir, env: { XDG_STATE_HOME: stateHome } });
    page = workbench.page;
  });

  after(async () => {
    await workbench?.close();
    rmSync(demo.claudeConfigDir, { recursive: true, force: true });
    rmSync(workspace, { recursive: true, force: true });
  });

  it('says in the panel that Claude Code is not connected, and what connecting is for', async () => {
    const line = await hooksLine(page, 'disconnected');
    assert.match(await line.innerText(), /Claude Code hooks: not connected — keep your constraints through Claude Code's own compactions/);
    await screenshot(page, 'hooks-line-disconnected-dark');
  });

  it("shows the diff, asks, then adds the hooks beside the person's own settings", async () => {
    // From the panel's own button: the webview may request this command.
    await (await hooksLine(page, 'disconnected')).locator('button', { hasText: 'Connect…' }).click();
    await page.locator('.monaco-diff-editor').first().waitFor({ timeout: 20_000 });
    await page.locator('.monaco-dialog-box', { hasText: /Connect Claude Code in payments-demo\?/ }).waitFor({ timeout: 20_000 });
    await screenshot(page, 'connect-dialog-dark');
    assert.deepEqual(JSON.parse(read()), THEIRS, 'nothing is written before the answer');
    await answerDialog(page, /Connect Claude Code in payments-demo\?/, 'Connect');

    const settings = await waitFor(
      () => JSON.parse(read()) as Settings,
      (value) => value.hooks.PreCompact !== undefined,
      'the hooks',
    );
    assert.deepEqual(settings.hooks.Stop, THEIRS.hooks.Stop);
    assert.deepEqual(settings.statusLine, THEIRS.statusLine, 'their status line is kept');
    assert.equal(settings.hooks.SessionStart?.[0]?.matcher, 'compact');
    // Said once every file is written: the settings first, then .mcp.json.
    await page.locator('.notifications-toasts', { hasText: 'Claude Code is connected in payments-demo' }).waitFor({ timeout: 10_000 });
    // The agent's MCP tools beside the hooks: the same CLI copy with `mcp`.
    const mcp = JSON.parse(readFileSync(join(workspace, '.mcp.json'), 'utf8')) as { mcpServers: Record<string, { command: string; args: string[] }> };
    assert.deepEqual(mcp.mcpServers['context-lens']?.args.slice(1), ['mcp']);
    assert.match(mcp.mcpServers['context-lens']?.args[0] ?? '', /[\\/]bin[\\/]cli\.js$/);
    assert.match(await (await hooksLine(page, 'connected')).innerText(), /Claude Code hooks: connected in \.claude\/settings\.local\.json · Disconnect/);
    await screenshot(page, 'hooks-line-connected-dark');

    connected = settings;
  });

  it("runs the hooks as written and shows what they did around Claude Code's own compaction", async () => {
    const preCompact = runHook(connected?.hooks.PreCompact?.[0]?.hooks[0]?.command ?? '', {
      hook_event_name: 'PreCompact',
      trigger: 'manual',
      custom_instructions: 'focus on tests',
    });
    assert.match(preCompact, /<pinned>[\s\S]*- Never modify config\/prod\.yaml\.[\s\S]*<\/pinned>/);
    assert.match(preCompact, /Focus the summary on: the retry rework/);
    appendCompaction(demo.transcript, 'Summary: the retry fix is in; never modify config/prod.yaml.', 16_000, 4_000);
    const sessionStart = runHook(connected?.hooks.SessionStart?.[0]?.hooks[0]?.command ?? '', { hook_event_name: 'SessionStart', source: 'compact' });
    assert.match(sessionStart, /^Written by the user before this conversation was compacted/);

    await runCommand(page, 'Context Lens: Open Panel');
    const frame = await webviewFrame(page);
    const line = frame.locator('[data-testid="history-hooks"]', { hasText: 'pinned block sent' });
    await line.waitFor({ timeout: 20_000 });
    const text = await line.innerText();
    assert.match(text, /pinned block sent: \d+ constraints?/);
    assert.match(text, /focus ‘the retry rework’ · re-injected after compaction/);
    await line.scrollIntoViewIfNeeded();
    await screenshot(page, 'history-hooks-dark');
  });

  it('disconnects back to exactly the settings that were there', async () => {
    await runCommand(page, 'Context Lens: Disconnect Agent…');
    await answerDialog(page, /Disconnect Claude Code in payments-demo\?/, 'Disconnect');
    await waitFor(read, (text) => !text.includes('hook pre-compact'), 'the hooks to go');
    assert.deepEqual(JSON.parse(read()), THEIRS);
    // The files are written one after the other: .mcp.json goes after the settings.
    await waitFor(
      () => existsSync(join(workspace, '.mcp.json')),
      (exists) => !exists,
      'the .mcp.json Connect created to go',
    );
    await hooksLine(page, 'disconnected');
    await screenshot(page, 'disconnected-dark');
  });

  it('notices a hand edit of the settings file: half the hooks is a partial connection', async () => {
    writeFileSync(settingsFile, JSON.stringify({ ...THEIRS, hooks: { ...THEIRS.hooks, PreCompact: connected?.hooks.PreCompact } }, null, 2));
    const line = await hooksLine(page, 'partial');
    assert.match(await line.innerText(), /Claude Code hooks: partly connected or outdated in \.claude\/settings\.local\.json · Connect…/);
  });
});
