// The live proxy in real VS Code (code-server): "Start Live Proxy" points new terminals at the proxy
// in the extension host; a scripted agent — the real Claude Code CLI, prompted again and again in
// one session, against the scripted stand-in for the API — runs in a VS Code terminal and goes
// through it. While the agent waits between prompts the panel shows the live edits (the gauge's
// "sent to the model" figure, a Live mark on the timeline, live fates in the map, the saving in the
// status bar); a tool result dropped in the map then reaches the model as a stub on the next prompt.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Frame, Page } from 'playwright-core';
import { proxyEventsPath, readProxyEvents, type ProxyEvent } from '../../src/proxy/events';
import { ensureClaudeCli, printArgs, projectDir } from '../support/claudeCli';
import { reply, startFakeAnthropic, text, toolUse, type FakeAnthropic, type MessagesRequest, type Turn } from '../support/fake-anthropic';
import { ensureCodexCli, writeCodexConfig } from '../support/codexCli';
import { writeWorkspaceSettings } from '../support/demoSession';
import { message, reply as codexReply, startFakeOpenAI, type FakeOpenAI } from '../support/fake-openai';
import { hostLogLines, runCommand, screenshot, startWorkbench, webviewFrame, type Workbench } from '../support/workbench';

/** Rounds before the agent waits for the test, and after. */
const ROUNDS_BEFORE = 5;
const ROUNDS_AFTER = 2;
const AGENT_TIMEOUT_MS = 240_000;

const quote = (arg: string): string => `'${arg.replace(/'/g, `'\\''`)}'`;

/**
 * The scripted agent: one session of prompts, each a `claude -p` run resuming the first, through
 * whatever ANTHROPIC_BASE_URL the terminal has. It leaves marks the test waits for, and waits for
 * the test's `go` before its last rounds.
 */
function agentScript(options: { claude: string; workspace: string; project: string; marks: string; home: string }): string {
  const run = (round: number, resume: boolean): string =>
    `${[options.claude, ...printArgs({ prompt: `Check the tables, round ${round}.` })].map(quote).join(' ')}${resume ? ' --resume "$session"' : ''} < /dev/null > /dev/null || exit 1`;
  const marks = quote(options.marks);
  return [
    '#!/bin/sh',
    `export HOME=${quote(options.home)} ANTHROPIC_API_KEY=sk-ant-test-offline-0000000000000000 CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1 DISABLE_AUTOUPDATER=1 DISABLE_TELEMETRY=1 DISABLE_ERROR_REPORTING=1`,
    `echo "$ANTHROPIC_BASE_URL" > ${marks}/base-url`,
    `echo "$CONTEXT_LENS_RESIDENT" > ${marks}/resident`,
    `cd ${quote(options.workspace)}`,
    `echo "scripted agent: round 1 through $ANTHROPIC_BASE_URL"`,
    run(1, false),
    `session=$(basename "$(ls -t ${quote(options.project)}/*.jsonl | head -1)" .jsonl)`,
    ...Array.from({ length: ROUNDS_BEFORE - 1 }, (_, index) => [`echo "scripted agent: round ${index + 2}"`, run(index + 2, true)]).flat(),
    `touch ${marks}/paused`,
    'echo "scripted agent: waiting for the test"',
    `while [ ! -f ${marks}/go ]; do sleep 0.2; done`,
    ...Array.from({ length: ROUNDS_AFTER }, (_, index) => [
      `echo "scripted agent: round ${ROUNDS_BEFORE + index + 1}"`,
      run(ROUNDS_BEFORE + index + 1, true),
    ]).flat(),
    `touch ${marks}/done`,
    'echo "scripted agent: done"',
    '',
  ].join('\n');
}

async function waitFor<T>(what: string, check: () => Promise<T | undefined> | T | undefined, timeoutMs = AGENT_TIMEOUT_MS): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

async function events(path: string): Promise<ProxyEvent[]> {
  const read = await readProxyEvents(path);
  assert.ok(read.ok);
  return read.value;
}

describe('the live proxy with a scripted agent in a VS Code terminal, in code-server', { timeout: 600_000 }, () => {
  const root = mkdtempSync(join(tmpdir(), 'context-lens-live-'));
  const workspace = join(root, 'project');
  const configDir = join(root, 'claude');
  const state = join(root, 'state');
  const marks = join(root, 'marks');
  const eventsFile = proxyEventsPath({ XDG_STATE_HOME: state });
  let fake: FakeAnthropic;
  let fakeOpenAI: FakeOpenAI;
  const codexHome = join(root, 'codex');
  const codexBin = join(root, 'codex-bin');
  let workbench: Workbench;
  let page: Page;
  let frame: Frame;

  before(async () => {
    for (const folder of [workspace, configDir, state, marks]) mkdirSync(folder, { recursive: true });
    const files = { a: join(workspace, 'alpha.ts'), b: join(workspace, 'beta.ts') };
    writeFileSync(files.a, Array.from({ length: 200 }, (_, line) => `export const alpha${line} = ${line} * 2; // the alpha table\n`).join(''));
    writeFileSync(files.b, Array.from({ length: 200 }, (_, line) => `export const beta${line} = ${line} + 1; // the beta table\n`).join(''));
    const read =
      (path: string): Turn =>
      () =>
        reply(toolUse('Read', { file_path: path }));
    const round: Turn[] = [read(files.a), read(files.b), read(files.a), () => reply(text('Both tables look fine.'))];
    fake = await startFakeAnthropic({ scenario: { turns: Array.from({ length: ROUNDS_BEFORE + ROUNDS_AFTER }, () => round).flat() } });
    writeFileSync(
      join(root, 'agent.sh'),
      agentScript({ claude: ensureClaudeCli(), workspace, project: projectDir(configDir, workspace), marks, home: join(root, 'home') }),
      { mode: 0o700 },
    );
    // Codex CLI for the last test: its provider is the Responses stand-in.
    fakeOpenAI = await startFakeOpenAI({ scenario: { prompts: [{ prompt: 'Say hello.', steps: [() => codexReply(message('Hello through the proxy.'))] }] } });
    writeCodexConfig(codexHome, { baseUrl: fakeOpenAI.url });
    mkdirSync(codexBin, { recursive: true });
    symlinkSync(ensureCodexCli(), join(codexBin, 'codex'));
    workbench = await startWorkbench({
      workspace,
      theme: 'Default Dark Modern',
      claudeConfigDir: configDir,
      // A small window so a few rounds of reads cross the trigger; the proxy takes both from the panel.
      settings: { 'contextLens.window.overrideTokens': 80_000, 'contextLens.trigger.thresholdPercent': 50, 'contextLens.trigger.targetPercent': 40 },
      // The proxy forwards to where the agent would have gone: the window's ANTHROPIC_BASE_URL.
      env: { XDG_STATE_HOME: state, ANTHROPIC_BASE_URL: fake.url, CODEX_HOME: codexHome },
    });
    page = workbench.page;
    // In an editor tab: the panel's own view shares the bottom area with the terminal.
    await runCommand(page, 'Context Lens: Open in Editor Tab');
    frame = await webviewFrame(page);
  });

  after(async () => {
    // The agent waits for `go`: release it so it does not outlive the test.
    writeFileSync(join(marks, 'go'), '');
    await workbench?.close();
    await fake?.stop();
    await fakeOpenAI?.stop();
    rmSync(root, { recursive: true, force: true });
  });

  it('Start Live Proxy puts it in the status bar; nothing is said about it in the panel before a request', async () => {
    await runCommand(page, 'Context Lens: Start Live Proxy');
    await liveStatus(page).filter({ hasText: 'Proxy on' }).waitFor({ timeout: 30_000 });
    assert.equal(await frame.locator('[data-testid="live-proxy"]').isVisible(), false);
  });

  it('the agent in a new terminal goes through the proxy, and the panel shows its live edits while it runs', async () => {
    // Terminals opened from now on also name the resident reader (host/ResidentCli.ts).
    await waitFor(
      'the resident reader',
      () => (hostLogLines(workbench.server.profileDir).join('\n').includes('resident reader on ') ? true : undefined),
      30_000,
    );
    await runCommand(page, 'Terminal: Create New Terminal');
    const terminal = page.locator('.terminal-wrapper.active .xterm');
    await terminal.waitFor({ state: 'visible', timeout: 30_000 });
    await terminal.click();
    await page.keyboard.type(`sh ${quote(join(root, 'agent.sh'))}\n`);

    await waitFor('the agent to pause', () => (existsSync(join(marks, 'paused')) ? true : existsSync(join(marks, 'done')) ? false : undefined));
    const url = readFileSync(join(marks, 'base-url'), 'utf8').trim();
    assert.match(url, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.notEqual(url, fake.url, 'the terminal points at the proxy, not at the API');
    const seen = await events(eventsFile);
    const edited = seen.filter((event) => event.action === 'edited');
    assert.ok(edited.length > 0, `the proxy edited: ${seen.map((event) => `${event.action} ${event.reason ?? ''}`).join('\n')}`);
    const session = edited[0]!.agentSession;
    assert.match(session ?? '', /^[0-9a-f-]{36}$/, 'events name the agent session');
    const transcript = join(projectDir(configDir, workspace), `${session}.jsonl`);
    assert.ok(existsSync(transcript), 'the session named is the transcript the panel follows');
    // `ctxlens inspect` in that terminal is answered by the extension's resident reader, exactly as on its own.
    const socket = readFileSync(join(marks, 'resident'), 'utf8').trim();
    assert.match(socket, /\.sock$/);
    const cli = join(__dirname, '..', '..', 'dist', 'cli.js');
    const inTerminal = { ...process.env, CLAUDE_CONFIG_DIR: configDir, CONTEXT_LENS_DEBUG: '1' };
    const served = spawnSync(process.execPath, [cli, 'inspect', transcript, '--json'], {
      encoding: 'utf8',
      env: { ...inTerminal, CONTEXT_LENS_RESIDENT: socket },
    });
    const alone = spawnSync(process.execPath, [cli, 'inspect', transcript, '--json'], { encoding: 'utf8', env: { ...inTerminal, CONTEXT_LENS_RESIDENT: '' } });
    assert.equal(served.status, 0, served.stderr);
    assert.equal(served.stderr, `ctxlens: answered by the resident reader at ${socket}\n`);
    assert.equal(served.stdout, alone.stdout);

    // The gauge: what reached the model, exactly, against the agent's view.
    const line = frame.locator('[data-testid="live-proxy"]');
    await line.filter({ hasText: 'sent to the model after live edits' }).waitFor({ timeout: 30_000 });
    assert.match(
      await line.innerText(),
      /sent to the model after live edits: [\d,]+ tokens \(exact: [\d,]+ read from the model's cache, [\d,]+ written to it, [\d,]+ uncached\) of the agent's ~[\d,]+ \(−[\d,]+\)/,
    );
    await frame.locator('[data-testid="gauge-held"]').waitFor({ state: 'visible', timeout: 10_000 });
    // The timeline marks the calls the edited requests made.
    await frame.locator('[data-testid="timeline-flag-live"]').first().waitFor({ timeout: 30_000 });
    assert.match(await frame.locator('[data-testid="timeline-events"]').innerText(), /Live proxy edited what reached the model — \d+ stubbed/);
    // The map: the live fate of the reads the proxy stubbed.
    await frame
      .locator('[data-testid="live-fates"]')
      .filter({ hasText: /Live proxy: \d+ stubbed/ })
      .waitFor({ timeout: 30_000 });
    const stubbedRows = await waitFor(
      'live fates in the map',
      async () => {
        const count = await frame.locator('[data-testid="region-row"][data-live="stubbed"]').count();
        return count > 0 ? count : undefined;
      },
      30_000,
    );
    assert.ok(stubbedRows > 0);
    // The status bar says what the proxy saved on the last request.
    assert.match(await liveStatus(page).innerText(), /Proxy on · −\d+k/);
    await screenshot(page, 'live-proxy-agent-dark');
  });

  it('a tool result dropped in the map reaches the model as a stub on the next prompt', async () => {
    // The newest read is whole; drop it. End scrolls the map to the newest items.
    const map = frame.locator('[data-testid="region-map"]');
    await map.focus();
    await map.press('End');
    const row = frame.locator('[data-testid="region-row"][data-live=""]', { hasText: 'tool results' }).last();
    const id = await row.getAttribute('data-id');
    await row.locator('[data-testid="choice-drop"]').click();
    await frame
      .locator('[data-testid="choices-bar"]')
      .filter({ hasText: `dropped #${id}` })
      .waitFor({ timeout: 10_000 });
    const before = fake.requests.length;
    writeFileSync(join(marks, 'go'), '');
    await waitFor('the agent to finish', () => (existsSync(join(marks, 'done')) ? true : undefined));

    const dropped = (await events(eventsFile)).flatMap((event) => event.newEdits).filter((edit) => edit.tier === 'choice');
    assert.equal(dropped.length, 1, 'one drop, made once');
    const later = fake.requests.slice(before).filter((request) => request.kind === 'main');
    assert.ok(later.length > 0);
    for (const request of later) {
      const result = (request.body as MessagesRequest).messages
        .flatMap((message) => (typeof message.content === 'string' ? [] : message.content))
        .find((block) => block.type === 'tool_result' && block.tool_use_id === dropped[0]!.toolUseId);
      assert.match(JSON.stringify(result?.content), /^"\[DROPPED\] Read .*beta\.ts|^"\[DROPPED\] Read .*alpha\.ts/);
    }
    // The map has grown since: bring the dropped row back on screen (rows are 22 px, in item order).
    await frame.locator('.region-scroller').evaluate((node, row) => node.scrollTo({ top: Math.max(0, (row - 4) * 22) }), Number(id));
    await frame.locator(`[data-testid="region-row"][data-id="${id}"][data-live="dropped"]`).waitFor({ timeout: 30_000 });
    await frame.locator('[data-testid="live-fates"]').filter({ hasText: '1 dropped' }).waitFor({ timeout: 30_000 });
    await screenshot(page, 'live-proxy-dropped-dark');
    // The same in a light theme: the stripes, marks and live column take the theme's colours.
    await runCommand(page, 'Preferences: Toggle between Light/Dark Themes');
    await page.locator('.monaco-workbench.vs:not(.vs-dark)').waitFor({ timeout: 15_000 });
    await frame.locator('body.vscode-light').waitFor({ timeout: 15_000 });
    await screenshot(page, 'live-proxy-dropped-light');
  });

  it('contextLens.terminal.residentReader off stops the resident reader and takes its socket; on starts it again', async () => {
    const socket = readFileSync(join(marks, 'resident'), 'utf8').trim();
    const started = (): number => hostLogLines(workbench.server.profileDir).join('\n').split('resident reader on ').length - 1;
    const before = started();
    writeWorkspaceSettings(workspace, { 'contextLens.terminal.residentReader': false });
    await waitFor(
      'the reader to be turned off',
      () => (hostLogLines(workbench.server.profileDir).join('\n').includes('resident reader turned off') && !existsSync(socket) ? true : undefined),
      30_000,
    );
    writeWorkspaceSettings(workspace, { 'contextLens.terminal.residentReader': true });
    await waitFor('the reader to start again', () => (started() > before && existsSync(socket) ? true : undefined), 30_000);
  });

  it('Codex CLI typed in a new terminal goes through the same proxy (no variable points it: a script first on PATH does)', async () => {
    const config = readFileSync(join(codexHome, 'config.toml'), 'utf8');
    await runCommand(page, 'Terminal: Create New Terminal');
    const terminal = page.locator('.terminal-wrapper.active .xterm');
    await terminal.waitFor({ state: 'visible', timeout: 30_000 });
    await terminal.click();
    // Outside the workspace, so the panel stays on the Claude Code session; a private HOME, as the integration tests give Codex.
    const elsewhere = join(root, 'elsewhere');
    mkdirSync(join(elsewhere, 'home'), { recursive: true });
    const out = join(marks, 'codex.out');
    const typed = [
      `cd ${quote(elsewhere)}`,
      // The terminal's shell sets PATH from its profile: where a person's codex is installed comes after the script's folder.
      `export PATH="$PATH:"${quote(codexBin)}`,
      `command -v codex > ${quote(join(marks, 'codex-path'))}`,
      `HOME=${quote(join(elsewhere, 'home'))} FAKE_API_KEY=sk-fake-offline-0000000000000000 RUST_LOG=error codex exec --dangerously-bypass-approvals-and-sandbox --skip-git-repo-check 'Say hello.' > ${quote(out)} 2>&1`,
      `echo $? > ${quote(join(marks, 'codex-exit'))}`,
      `clear; echo "codex exited $(cat ${quote(join(marks, 'codex-exit'))}):"; tail -n 3 ${quote(out)}`,
    ].join('; ');
    await page.keyboard.type(`${typed}\n`);
    await waitFor('codex to finish', () => (existsSync(join(marks, 'codex-exit')) ? true : undefined), 180_000);
    const said = readFileSync(out, 'utf8');
    assert.equal(readFileSync(join(marks, 'codex-exit'), 'utf8').trim(), '0', said);
    assert.match(readFileSync(join(marks, 'codex-path'), 'utf8'), /\/live-proxy-[^/]+\/codex\n$/, 'the terminal finds the script first');
    assert.match(said, /Hello through the proxy/);
    assert.doesNotMatch(said, /without the live proxy/);
    const responses = (await events(eventsFile)).filter((event) => event.format === 'openai-responses');
    assert.equal(responses.length, 1, 'the turn went through the proxy');
    assert.ok(responses[0]!.status === 200 && responses[0]!.usage !== null, 'with its exact usage');
    assert.equal(fakeOpenAI.errors.length, 0, fakeOpenAI.errors.map((error) => error.message).join('\n'));
    assert.equal(readFileSync(join(codexHome, 'config.toml'), 'utf8'), config, 'config.toml only read');
    // The terminal as the person sees it: Codex's answer, and the status bar's proxy item.
    await page
      .locator('.terminal-wrapper.active .xterm-rows', { hasText: 'codex exited 0' })
      .waitFor({ timeout: 15_000 })
      .catch(() => undefined);
    await screenshot(page, 'live-proxy-codex-terminal-light');
  });
});

/** The live proxy's status bar item. */
function liveStatus(page: Page) {
  return page.locator('#workbench\\.parts\\.statusbar [id="context-lens.context-lens.contextLens.liveProxy"]');
}
