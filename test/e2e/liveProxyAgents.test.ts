// The live proxy's line in the panel for Codex, Gemini CLI and OpenCode, in real VS Code
// (code-server): each real CLI is started as a person would, `ctxlens run -- <cli> …` from the
// shipped bundle, offline against its API's loopback stand-in, in the workspace the panel follows.
// It reads the same files again and again past the proxy's trigger, then runs a shell command that
// waits for the test: while the CLI is held there, the panel shows that session's fill and the live
// proxy line with the stubbed reads, found for Codex by the session id its requests name and for
// Gemini CLI and OpenCode (whose requests name none) by the tool calls their transcripts hold. One
// screenshot per agent; then the CLI is released and finishes its turn without an API error.
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Frame, Page } from 'playwright-core';
import { proxyStateDir } from '../../src/proxy/events';
import { runOutcome, type CliRun } from '../support/cliRun';
import { ensureCodexCli, execArgs, writeCodexConfig } from '../support/codexCli';
import { exec, message, reply as codexReply, startFakeOpenAI } from '../support/fake-openai';
import { call, reply as geminiReply, startFakeGemini, text } from '../support/fake-gemini';
import { startFakeChat } from '../support/fake-openai-chat';
import { ensureGeminiCli, geminiEnv, promptArgs, writeGeminiSettings } from '../support/geminiCli';
import { ensureOpencodeCli, opencodeDb, opencodeEnv } from '../support/opencodeCli';
import { runShippedOnce } from '../support/shippedCli';
import { hostLogLines, runCommand, screenshot, startWorkbench, webviewFrame, type Workbench } from '../support/workbench';

/** The proxy's window and trigger, the same in the panel's settings (which it sends the proxy for a session it names). */
const WINDOW = 44_000;
const LIVE = ['--window', String(WINDOW), '--trigger-percent', '50', '--target-percent', '30', '--min-batch-tokens', '500'];
const SETTINGS = { 'contextLens.window.overrideTokens': WINDOW, 'contextLens.trigger.thresholdPercent': 50, 'contextLens.trigger.targetPercent': 30 };
const FILES = ['alpha', 'beta', 'gamma'];
const RUN_TIMEOUT_MS = 360_000;

const quote = (arg: string): string => `'${arg.replace(/'/g, `'\\''`)}'`;

async function waitFor<T>(what: string, check: () => Promise<T | undefined> | T | undefined, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** What one agent brings: its stand-in, its CLI's command line and environment, and the homes the panel reads. */
interface AgentRun {
  readonly label: string;
  /** `ctxlens run -- <these>` */
  readonly command: readonly string[];
  readonly env: NodeJS.ProcessEnv;
  /** For the extension host: where the panel finds the agent's sessions. */
  readonly hostEnv: Record<string, string>;
  readonly stop: () => Promise<void>;
  readonly errors: () => readonly Error[];
  /** How the panel knows the requests are the session's: by the id they name, or by its tool calls. */
  readonly matchedByToolCalls: boolean;
  /** The agent compacts by itself beyond the test's window (the panel says so instead of a mark). */
  readonly beyondWindow: boolean;
}

interface Layout {
  readonly root: string;
  readonly workspace: string;
  /** The shell command the CLI runs last: it says it waits, then waits for the test's `go`. */
  readonly wait: string;
}

function layoutOf(agent: string): Layout & { marks: string } {
  const root = mkdtempSync(join(tmpdir(), `context-lens-live-${agent}-`));
  const workspace = join(root, 'tables');
  const marks = join(root, 'marks');
  for (const folder of [workspace, marks]) mkdirSync(folder, { recursive: true });
  for (const name of FILES)
    writeFileSync(join(workspace, `${name}.txt`), Array.from({ length: 120 }, (_, line) => `${name}${line} = ${line} * 2 # the ${name} table\n`).join(''));
  const wait = `touch ${quote(join(marks, 'paused'))}; while [ ! -f ${quote(join(marks, 'go'))} ]; do sleep 0.2; done; echo released`;
  return { root, workspace, marks, wait };
}

async function codexRun({ root, workspace, wait }: Layout): Promise<AgentRun> {
  const binary = ensureCodexCli();
  // Codex's instructions and tools are ~9k tokens, each read ~1.5k: the trigger (22k) is crossed after about nine reads.
  const reads = Array.from({ length: 12 }, (_, read) => () => codexReply(exec(`cat ${FILES[read % 2]}.txt`)));
  // Codex hands a command still running back to the model after at most 30 s: the stand-in asks it to wait again.
  const waits = Array.from(
    { length: 8 },
    () => () => codexReply({ type: 'function_call', name: 'exec_command', arguments: { cmd: wait, yield_time_ms: 30_000 } }),
  );
  const prompt = 'Check the alpha and beta tables.';
  const fake = await startFakeOpenAI({ scenario: { prompts: [{ prompt, steps: [...reads, ...waits, () => codexReply(message('Both tables look fine.'))] }] } });
  const codexHome = join(root, 'codex');
  writeCodexConfig(codexHome, { baseUrl: fake.url });
  const home = join(root, 'home');
  mkdirSync(home, { recursive: true });
  return {
    label: 'codex',
    command: [binary, ...execArgs({ prompt, cd: workspace })],
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      LANG: 'C.UTF-8',
      HOME: home,
      CODEX_HOME: codexHome,
      FAKE_API_KEY: 'sk-fake-offline-0000000000000000',
      RUST_LOG: 'error',
    },
    hostEnv: { CODEX_HOME: codexHome },
    stop: () => fake.stop(),
    errors: () => fake.errors,
    matchedByToolCalls: false,
    beyondWindow: false,
  };
}

async function geminiRun({ root, wait }: Layout): Promise<AgentRun> {
  const entry = ensureGeminiCli();
  const bin = join(root, 'bin');
  mkdirSync(bin, { recursive: true });
  writeFileSync(join(bin, 'gemini'), `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} --no-warnings ${JSON.stringify(entry)} "$@"\n`);
  chmodSync(join(bin, 'gemini'), 0o755);
  // Gemini CLI's system prompt and tools are ~11k tokens, each read ~1.1k: the trigger is crossed after about ten reads.
  // Three files in turn: it ends a turn that repeats one call five times.
  const steps = [
    ...Array.from({ length: 12 }, (_, read) => () => geminiReply(call('read_file', { file_path: `${FILES[read % FILES.length]}.txt` }))),
    () => geminiReply(call('run_shell_command', { command: wait, description: 'Wait for the test' })),
    () => geminiReply(text('The tables look fine.')),
  ];
  const prompt = 'Check the tables.';
  const fake = await startFakeGemini({ scenario: { prompts: [{ prompt, steps }] } });
  const home = join(root, 'gemini-home');
  writeGeminiSettings(home);
  return {
    label: 'gemini',
    command: ['gemini', ...promptArgs(prompt)],
    env: { ...geminiEnv({ home, baseUrl: fake.url }), PATH: `${bin}:${process.env.PATH ?? '/usr/bin:/bin'}` },
    hostEnv: { GEMINI_CLI_HOME: home },
    stop: () => fake.stop(),
    errors: () => fake.errors,
    matchedByToolCalls: true,
    beyondWindow: true,
  };
}

async function opencodeRun({ root, workspace, wait }: Layout): Promise<AgentRun> {
  const binary = ensureOpencodeCli();
  const read = (index: number) => ({ toolCalls: [{ name: 'read', arguments: { filePath: join(workspace, `${FILES[index % 2]}.txt`) } }] });
  // OpenCode's system prompt and tools are ~7k tokens and each read ~1.25k: the trigger is crossed after about twelve reads.
  const chat = await startFakeChat({
    steps: [
      ...Array.from({ length: 16 }, (_, index) => read(index)),
      { toolCalls: [{ name: 'bash', arguments: { command: wait, description: 'Wait for the test', timeout: 300_000 } }] },
      { text: 'Both tables look fine.' },
    ],
  });
  const agentRoot = join(root, 'opencode');
  // The waiting command touches the test's marks, outside the workspace: allowed, as a person would.
  const config = { permission: { edit: 'allow', bash: 'allow', webfetch: 'deny', external_directory: 'allow' } };
  const env = opencodeEnv({ root: agentRoot, baseUrl: chat.url, config });
  return {
    label: 'opencode',
    command: [binary, 'run', '--format', 'json', 'Check the alpha and beta tables.'],
    env,
    hostEnv: { OPENCODE_DB: opencodeDb(agentRoot), OPENCODE_CONFIG_CONTENT: env.OPENCODE_CONFIG_CONTENT ?? '', XDG_CONFIG_HOME: env.XDG_CONFIG_HOME ?? '' },
    stop: () => chat.stop(),
    errors: () => chat.errors,
    matchedByToolCalls: true,
    beyondWindow: false,
  };
}

for (const [name, start] of [
  ['Codex', codexRun],
  ['Gemini CLI', geminiRun],
  ['OpenCode', opencodeRun],
] as const) {
  describe(`the live proxy line for ${name} running through ctxlens run, in code-server`, { timeout: 600_000 }, () => {
    const layout = layoutOf(name.split(' ')[0]!.toLowerCase());
    const state = join(layout.root, 'state');
    let agent: AgentRun;
    let workbench: Workbench;
    let page: Page;
    let frame: Frame;
    let run: Promise<CliRun> | undefined;

    before(async () => {
      agent = await start(layout);
      workbench = await startWorkbench({
        workspace: layout.workspace,
        theme: 'Default Dark Modern',
        claudeConfigDir: join(layout.root, 'claude'),
        settings: SETTINGS,
        // The proxy's events and the panel's instructions are in the window's state folder; empty homes for the other agents.
        env: { XDG_STATE_HOME: state, CODEX_HOME: join(layout.root, 'no-codex'), GEMINI_CLI_HOME: join(layout.root, 'no-gemini'), ...agent.hostEnv },
      });
      page = workbench.page;
      await runCommand(page, 'Context Lens: Open in Editor Tab');
      frame = await webviewFrame(page);
    });

    after(async () => {
      // The CLI waits for `go`: release it so it does not outlive the test.
      writeFileSync(join(layout.marks, 'go'), '');
      await run?.catch(() => undefined);
      await workbench?.close();
      await agent?.stop();
      rmSync(layout.root, { recursive: true, force: true });
    });

    it(`shows the ${name} session's fill and the proxy's live edits while the CLI runs, then the CLI finishes its turn`, async () => {
      const stateDir = proxyStateDir({ XDG_STATE_HOME: state });
      run = runShippedOnce(['run', '--state-dir', stateDir, ...LIVE, '--', ...agent.command], {
        cwd: layout.workspace,
        env: agent.env,
        timeoutMs: RUN_TIMEOUT_MS,
      });
      const ended = run.then((outcome) => outcome);
      await waitFor(
        `${name} to reach its waiting command`,
        async () => {
          if (existsSync(join(layout.marks, 'paused'))) return true;
          const early = await Promise.race([ended, new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 50))]);
          if (early) throw new Error(`${name} ended before it waited:\n${runOutcome(early)}`);
          return undefined;
        },
        RUN_TIMEOUT_MS,
      );
      // The session's own fill, exact from its last response.
      try {
        await frame.locator('[data-testid="fill-summary"]', { hasText: `/ ${WINDOW.toLocaleString('en-US')} tokens` }).waitFor({ timeout: 60_000 });
      } catch (error) {
        // Which session the host followed, and what the panel shows instead: a failure here says why.
        console.error(`host log:\n${hostLogLines(workbench.server.profileDir).slice(-60).join('\n')}`);
        console.error(
          `browser console:\n${workbench
            .consoleLines()
            .filter((line) => /Context Lens/.test(line))
            .join('\n')}`,
        );
        console.error(
          `fill line: ${await frame
            .locator('[data-testid="fill-summary"]')
            .textContent()
            .catch(() => '(none)')}`,
        );
        await screenshot(page, `live-proxy-${agent.label}-failed`);
        throw error;
      }
      // An agent's own point beyond the 44,000-token window (Gemini CLI's: half of 1,048,576) is not drawn, and said.
      if (agent.beyondWindow) {
        await frame
          .locator('[data-testid="threshold-notes"]', { hasText: /compacts by itself at [\d,]+ tokens, beyond this 44,000-token window/ })
          .waitFor({ timeout: 10_000 });
      }
      assert.deepEqual(
        workbench.consoleLines().filter((line) => /Context Lens: refused/.test(line)),
        [],
        'the panel refused none of the state',
      );
      // The live line: what reached the model after the proxy's edits, and how the session was known.
      const line = frame.locator('[data-testid="live-proxy"]');
      await line.filter({ hasText: 'sent to the model after live edits' }).waitFor({ timeout: 60_000 });
      const said = await line.innerText();
      assert.match(said, /of the agent's ~[\d,]+ \(−[\d,]+\) · \d+ tool results? stubbed, cleared or truncated/);
      if (agent.matchedByToolCalls) assert.match(said, /matched by its tool call ids/);
      else assert.doesNotMatch(said, /matched by/);
      assert.doesNotMatch(said, /no match/);
      await frame
        .locator('[data-testid="live-fates"]')
        .filter({ hasText: /Live proxy: \d+ (stubbed|cleared)/ })
        .waitFor({ timeout: 30_000 });
      await screenshot(page, `live-proxy-${agent.label}-dark`);

      writeFileSync(join(layout.marks, 'go'), '');
      const outcome = await ended;
      assert.equal(outcome.code, 0, runOutcome(outcome));
      assert.equal(
        agent.errors().length,
        0,
        agent
          .errors()
          .map((error) => error.message)
          .join('\n'),
      );
    });
  });
}
