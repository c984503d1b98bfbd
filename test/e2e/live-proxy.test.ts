// The panel follows the live proxy's event stream (src/proxy/events.ts), in real VS Code: a request
// the proxy edited, written to the events file as the proxy writes it, shows in the gauge's area as
// what reached the model against what the agent sent, with the model's cache figures.
import assert from 'node:assert/strict';
import { appendFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Frame, Page } from 'playwright-core';
import { formatProxyEvent, proxyEventsPath, type ProxyEvent } from '../../src/proxy/events';
import { copyDemoWorkspace, prepareDemoSession } from '../support/demoSession';
import { runCommand, screenshot, startWorkbench, webviewFrame, type Workbench } from '../support/workbench';

const EDITED: ProxyEvent = {
  v: 1,
  time: new Date().toISOString(),
  session: 'e2e',
  agentSession: null,
  method: 'POST',
  path: '/v1/messages',
  action: 'edited',
  reason: 'past the trigger',
  model: 'claude-sonnet-5-5',
  stream: true,
  agentTokens: 161_200,
  sentTokens: 118_400,
  stickyEdits: 0,
  newEdits: [1, 2, 3].map((n) => ({ toolUseId: `toolu_${n}`, tier: 'supersede' as const, ref: `ctx-lens:${n}`, tokensBefore: 14_500, tokensAfter: 233 })),
  restored: [],
  addedMs: 3.2,
  status: 200,
  usage: { inputTokens: 12, outputTokens: 40, cacheReadTokens: 96_000, cacheCreationTokens: 22_388 },
  error: null,
};

describe('the live proxy in the panel, in code-server', { timeout: 240_000 }, () => {
  const state = mkdtempSync(join(tmpdir(), 'context-lens-state-'));
  const events = proxyEventsPath({ XDG_STATE_HOME: state });
  const workspace = copyDemoWorkspace();
  const demo = prepareDemoSession(workspace);
  let workbench: Workbench;
  let page: Page;
  let frame: Frame;

  before(async () => {
    workbench = await startWorkbench({ workspace, theme: 'Default Dark Modern', claudeConfigDir: demo.claudeConfigDir, env: { XDG_STATE_HOME: state } });
    page = workbench.page;
    await runCommand(page, 'Context Lens: Open Panel');
    frame = await webviewFrame(page);
  });

  after(async () => {
    await workbench?.close();
    for (const folder of [state, demo.claudeConfigDir, workspace]) rmSync(folder, { recursive: true, force: true });
  });

  it('says nothing about a proxy before a request went through one', async () => {
    await frame.locator('[data-testid="fill-summary"]', { hasText: '/ 200,000 tokens' }).waitFor({ timeout: 30_000 });
    assert.equal(await frame.locator('[data-testid="live-proxy"]').isVisible(), false);
  });

  it('shows what the proxy sent of the agent\'s last request, and the model\'s cache figures, as it is written', async () => {
    mkdirSync(dirname(events), { recursive: true, mode: 0o700 });
    appendFileSync(events, `${formatProxyEvent(EDITED)}\n`, { mode: 0o600 });
    const line = frame.locator('[data-testid="live-proxy"]');
    await line.waitFor({ state: 'visible', timeout: 15_000 });
    const text = await line.innerText();
    assert.match(text, /the last request sent 118,400 of the agent's 161,200 tokens \(−42,800 by our edits\)/);
    assert.match(text, /3 tool results stubbed, cleared or truncated in 1 request/);
    assert.match(text, /read 96,000 tokens from its cache and wrote 22,388/);
    await screenshot(page, 'live-proxy-dark');
  });
});
