// The bundled demo session, recorded with the real Claude Code CLI, shown live in real VS Code:
// the gauge says exactly what the transcript's last usage says, and moves when the agent appends.
import assert from 'node:assert/strict';
import { appendFileSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Frame, Page } from 'playwright-core';
import { prepareDemoClaudeConfig } from '../../scripts/demo-session';
import { encodeProjectDirName, readFill } from '../../src/sessions/claude-code';
import { runCommand, screenshot, startWorkbench, statusBarItem, webviewFrame, type Workbench } from '../support/workbench';

const ROOT = join(__dirname, '..', '..');
const WORKSPACE = join(ROOT, 'samples', 'demo-workspace');

function sessionFile(configDir: string): string {
  const project = join(configDir, 'projects', encodeProjectDirName(WORKSPACE));
  const name = readdirSync(project).find((entry) => entry.endsWith('.jsonl'));
  assert.ok(name, `no demo transcript in ${project}`);
  return join(project, name);
}

/** A further response from the agent: the last assistant record again, with more context used. */
function appendResponse(path: string, cacheReadInputTokens: number): void {
  const lines = readFileSync(path, 'utf8').trimEnd().split('\n');
  const records = lines.map((line) => JSON.parse(line) as { type?: string; uuid?: string; message?: Record<string, unknown> });
  const lastAssistant = records.reverse().find((record) => record.type === 'assistant');
  assert.ok(lastAssistant);
  const next = {
    ...lastAssistant,
    uuid: '0e2e0e2e-0000-4000-8000-000000000001',
    parentUuid: lastAssistant.uuid,
    timestamp: new Date().toISOString(),
    message: { ...lastAssistant.message, id: 'msg_e2e_appended', usage: { input_tokens: 10, cache_creation_input_tokens: 0, cache_read_input_tokens: cacheReadInputTokens, output_tokens: 20 } },
  };
  appendFileSync(path, `${JSON.stringify(next)}\n`);
}

async function gaugeText(frame: Frame): Promise<string> {
  return frame.locator('[data-testid="fill-summary"]').innerText();
}

describe('Context Lens on the recorded demo session, in code-server', { timeout: 240_000 }, () => {
  let workbench: Workbench;
  let page: Page;
  const claudeConfigDir = prepareDemoClaudeConfig(WORKSPACE, mkdtempSync(join(tmpdir(), 'context-lens-demo-claude-')));
  const transcript = sessionFile(claudeConfigDir);

  before(async () => {
    workbench = await startWorkbench({ workspace: WORKSPACE, theme: 'Default Dark Modern', claudeConfigDir });
    page = workbench.page;
  });

  after(async () => {
    await workbench?.close();
    rmSync(claudeConfigDir, { recursive: true, force: true });
  });

  it('shows the exact fill from the transcript\'s last usage, in the panel and the status bar', async () => {
    const expected = await readFill(transcript);
    assert.ok(expected.ok);
    const { usedTokens, windowTokens } = expected.value.fill;
    await runCommand(page, 'Context Lens: Open Panel');
    const frame = await webviewFrame(page);
    const summary = `${usedTokens.toLocaleString('en-US')} / ${windowTokens.toLocaleString('en-US')} tokens`;
    await frame.locator('[data-testid="fill-summary"]', { hasText: summary }).waitFor({ timeout: 20_000 });
    assert.match(await frame.locator('#app').innerText(), /exact, from the last response's usage/);
    assert.match(await statusBarItem(page).innerText(), new RegExp(`${Math.round((usedTokens / windowTokens) * 100)}% · `));
    await screenshot(page, 'session-dark');
  });

  it('moves the gauge when the agent appends a response', async () => {
    const frame = await webviewFrame(page);
    const before = await gaugeText(frame);
    appendResponse(transcript, 120_000);
    await frame.locator('[data-testid="fill-summary"]', { hasText: '120,010 / 200,000 tokens' }).waitFor({ timeout: 10_000 });
    assert.notEqual(await gaugeText(frame), before);
    assert.match(await statusBarItem(page).innerText(), /60% · 120k\/200k/);
    await screenshot(page, 'session-appended-dark');
  });
});
