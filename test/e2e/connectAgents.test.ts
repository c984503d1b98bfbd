// Connect from the panel for a Codex CLI, a Gemini CLI and an OpenCode session, in real VS Code: the
// line under the toolbar is the viewed session's agent's (not connected → Connect… → connected, with
// what the agent still needs: Codex asks the person to trust the hook), the diff and the question
// name that agent, and when the agent then compacts itself the hook (or plugin) that Connect wrote
// runs as the agent would run it and the History says that the person's block went in. Disconnect
// (the command, with the session still viewed) gives every file back.
//
// The sessions are real recordings (test/fixtures/<agent>/); each gets one more compaction of its
// own, written the way the agent writes it, at the moment the hook runs: the History matches hook
// runs to compactions by time, and the recordings are days old.
import assert from 'node:assert/strict';
import { execSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import type { Frame, Locator, Page } from 'playwright-core';
import { imageAfter, unpackFixture } from '../support/opencodeWal';
import { runCommand, screenshot, startWorkbench, webviewFrame, type Workbench } from '../support/workbench';

const FIXTURES = join(__dirname, '..', 'fixtures');

/** What one agent's case needs: its session in place, and the agent's own compaction with the hooks Connect wrote running around it. */
interface AgentCase {
  /** The agent's name as the panel shows it, and its id. */
  readonly name: string;
  readonly id: string;
  /** The folder name the workspace has (the recording's). */
  readonly folder: string;
  /** The files Connect writes, relative to the workspace, as the line names them. */
  readonly where: string;
  /** What the line calls what Connect installs. */
  readonly installs: 'hooks' | 'plugin';
  /** Puts the session where the agent keeps it, for `workspace`; the environment the extension (and the hooks) need. */
  setUp(root: string, workspace: string): Promise<Record<string, string>>;
  /** The agent compacts itself now, with the connected hooks running as it runs them. */
  compact(root: string, workspace: string, env: Record<string, string>): Promise<void>;
  /** What the History's hooks line says then. */
  readonly mark: RegExp;
}

/** Every file below `folder` whose name ends with `suffix`. */
function filesBelow(folder: string, suffix: string): string[] {
  return readdirSync(folder, { recursive: true, encoding: 'utf8' })
    .filter((path) => path.endsWith(suffix) && statSync(join(folder, path)).isFile())
    .map((path) => join(folder, path));
}

/** `text` with every occurrence of each key replaced by its value. */
function relocated(text: string, pairs: Record<string, string>): string {
  return Object.entries(pairs).reduce((current, [from, to]) => current.split(from).join(to), text);
}

/** The first hook command in an agent's settings file that runs `ctxlens hook`. */
function hookCommandIn(path: string): string {
  const found: string[] = [];
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(visit);
    else if (value !== null && typeof value === 'object')
      for (const [key, inner] of Object.entries(value)) {
        if (key === 'command' && typeof inner === 'string' && / hook /.test(inner)) found.push(inner);
        else visit(inner);
      }
  };
  visit(JSON.parse(readFileSync(path, 'utf8')));
  assert.ok(found[0], `no Context Lens hook command in ${path}`);
  return found[0];
}

/** Runs a hook command as the agents do: through a shell, the hook's JSON on stdin. */
function runHook(command: string, input: Record<string, unknown>, env: Record<string, string>): string {
  return execSync(command, { input: JSON.stringify(input), encoding: 'utf8', shell: '/bin/sh', env: { ...process.env, ...env } });
}

/** Writes `text` to `path` the way the agents do: a complete file renamed into place. */
function replaceFile(path: string, bytes: string | Uint8Array): void {
  writeFileSync(`${path}.tmp`, bytes);
  renameSync(`${path}.tmp`, path);
}

const codex: AgentCase = {
  name: 'Codex CLI',
  id: 'codex',
  folder: 'tally',
  where: '.codex/hooks.json and .codex/config.toml',
  installs: 'hooks',
  async setUp(root, workspace) {
    const codexHome = join(root, 'codex');
    cpSync(join(FIXTURES, 'codex', 'tally'), codexHome, { recursive: true });
    for (const path of filesBelow(join(codexHome, 'sessions'), '.jsonl'))
      writeFileSync(path, relocated(readFileSync(path, 'utf8'), { '/home/user/tally': workspace }));
    return { CODEX_HOME: codexHome };
  },
  async compact(root, workspace, env) {
    const [rollout] = filesBelow(join(root, 'codex', 'sessions'), '.jsonl');
    assert.ok(rollout);
    const lines = readFileSync(rollout, 'utf8').trimEnd().split('\n');
    const meta = JSON.parse(lines[0] ?? '{}') as { payload?: { id?: string } };
    const compacted = lines.find((line) => JSON.parse(line).type === 'compacted');
    assert.ok(compacted && meta.payload?.id);
    // Codex compacts (its `compacted` record), then runs the SessionStart hooks with source "compact".
    const record = { ...(JSON.parse(compacted) as Record<string, unknown>), timestamp: new Date().toISOString() };
    writeFileSync(rollout, `${JSON.stringify(record)}\n`, { flag: 'a' });
    const printed = runHook(
      hookCommandIn(join(workspace, '.codex', 'hooks.json')),
      { session_id: meta.payload.id, transcript_path: rollout, cwd: workspace, hook_event_name: 'SessionStart', source: 'compact' },
      env,
    );
    assert.match(printed, /"additionalContext":"[\s\S]*<pinned>/);
  },
  mark: /pinned block re-injected after compaction: \d+ constraints?/,
};

const gemini: AgentCase = {
  name: 'Gemini CLI',
  id: 'gemini',
  folder: 'inventory',
  where: '.gemini/settings.json',
  installs: 'hooks',
  async setUp(root, workspace) {
    const geminiDir = join(root, 'gemini-home', '.gemini');
    cpSync(join(FIXTURES, 'gemini', 'recorded', 'compress', 'gemini'), geminiDir, { recursive: true });
    for (const path of [join(geminiDir, 'projects.json'), ...filesBelow(join(geminiDir, 'tmp'), '.jsonl')])
      writeFileSync(path, relocated(readFileSync(path, 'utf8'), { '/home/user/.gemini': geminiDir, '/home/user/inventory': workspace }));
    return { GEMINI_CLI_HOME: join(root, 'gemini-home') };
  },
  async compact(root, workspace, env) {
    const [chat] = filesBelow(join(root, 'gemini-home', '.gemini', 'tmp'), '.jsonl');
    assert.ok(chat);
    const lines = readFileSync(chat, 'utf8').trimEnd().split('\n');
    const sessionId = (JSON.parse(lines[0] ?? '{}') as { sessionId?: string }).sessionId;
    // The recording's compression: a `$set.messages` snapshot holding the summary. Gemini's next one
    // rewrites the history the same way, with a summary of its own (a new id, now).
    type Message = { id: string; timestamp: string; type: string; content: { text?: string }[] };
    const snapshot = lines
      .map((line) => JSON.parse(line) as { $set?: { messages?: Message[] } })
      .find((record) => record.$set?.messages?.some((message) => message.content[0]?.text?.startsWith('<state_snapshot>')));
    const messages = snapshot?.$set?.messages ?? [];
    const at = messages.findIndex((message) => message.content[0]?.text?.startsWith('<state_snapshot>'));
    assert.ok(at > 0 && sessionId);
    const now = new Date().toISOString();
    const kept = messages
      .slice(0, at + 2)
      .map((message, index) => (index < at ? message : { ...message, id: `${message.id.slice(0, -4)}c0${index}0`, timestamp: now }));
    writeFileSync(chat, `${JSON.stringify({ $set: { messages: kept } })}\n`, { flag: 'a' });
    // The person's next turn: BeforeAgent sees the compression and adds the block to it.
    const printed = runHook(
      hookCommandIn(join(workspace, '.gemini', 'settings.json')),
      { session_id: sessionId, transcript_path: chat, cwd: workspace, hook_event_name: 'BeforeAgent', prompt: 'Go on with the next step.' },
      env,
    );
    assert.match(printed, /"additionalContext":"[\s\S]*<pinned>/);
  },
  mark: /pinned block re-injected after compaction: \d+ constraints?/,
};

const OPENCODE_SESSION = 'ses_deb3931d1ffebhOPh4OagtOIAt';

const opencode: AgentCase = {
  name: 'OpenCode',
  id: 'opencode',
  folder: 'workspace',
  where: '.opencode/plugins/context-lens.js',
  installs: 'plugin',
  async setUp(root, workspace) {
    const db = join(root, 'opencode', 'opencode.db');
    mkdirSync(join(root, 'opencode'), { recursive: true });
    const image = unpackFixture('compaction', db);
    replaceFile(db, await imageAfter(image, 'UPDATE session SET directory = ?', [workspace]));
    return { OPENCODE_DB: db };
  },
  async compact(root, workspace, env) {
    const db = join(root, 'opencode', 'opencode.db');
    // The plugin file Connect wrote, loaded as OpenCode loads it (an ES module), and its hooks called as OpenCode calls them.
    const copy = join(root, 'plugin.mjs');
    writeFileSync(copy, readFileSync(join(workspace, '.opencode', 'plugins', 'context-lens.js'), 'utf8'));
    const load = new Function('url', 'return import(url)') as (url: string) => Promise<Record<string, unknown>>;
    const plugin = (await load(pathToFileURL(copy).href)).ContextLens as (input: {
      directory: string;
    }) => Promise<Record<string, (...args: unknown[]) => Promise<void>>>;
    const saved = { ...process.env };
    Object.assign(process.env, env);
    try {
      const hooks = await plugin({ directory: workspace });
      const compacting = { context: [] as string[] };
      await hooks['experimental.session.compacting']?.({ sessionID: OPENCODE_SESSION }, compacting);
      assert.match(compacting.context.join('\n'), /<pinned>/);
      // OpenCode records the compaction: its request (a user message with a compaction part) and the summary answering it.
      const now = Date.now();
      const row = (table: string, id: string, message: string | null, time: number, data: unknown) =>
        table === 'message'
          ? [
              `INSERT INTO message (id, session_id, time_created, time_updated, data) VALUES (?, ?, ?, ?, ?)`,
              [id, OPENCODE_SESSION, time, time, JSON.stringify(data)],
            ]
          : [
              `INSERT INTO part (id, message_id, session_id, time_created, time_updated, data) VALUES (?, ?, ?, ?, ?, ?)`,
              [id, message, OPENCODE_SESSION, time, time, JSON.stringify(data)],
            ];
      const request = 'msg_214c90000001CtxLensCompactQ';
      const summary = 'msg_214c90000002CtxLensCompactS';
      const model = { providerID: 'fake', modelID: 'fake-model' };
      const rows = [
        row('message', request, null, now, { role: 'user', time: { created: now }, agent: 'build', model, summary: { diffs: [] } }),
        row('part', 'prt_214c90000001CtxLensCompactA', request, now, { type: 'compaction', auto: true, overflow: false }),
        row('message', summary, null, now + 1, {
          role: 'assistant',
          parentID: request,
          mode: 'compaction',
          agent: 'compaction',
          summary: true,
          path: { cwd: workspace, root: '/' },
          cost: 0,
          tokens: { total: 1100, input: 1080, output: 20, reasoning: 0, cache: { write: 0, read: 0 } },
          ...model,
          time: { created: now + 1, completed: now + 2 },
          finish: 'stop',
        }),
        row('part', 'prt_214c90000002CtxLensCompactB', summary, now + 1, { type: 'text', text: '## Goal\nThe offline test task.' }),
      ] as [string, unknown[]][];
      let image: Uint8Array = new Uint8Array(readFileSync(db));
      for (const [sql, params] of rows) image = await imageAfter(image, sql, params);
      replaceFile(db, image);
      await hooks.event?.({ event: { type: 'session.compacted', properties: { sessionID: OPENCODE_SESSION } } });
      // The next request: the plugin puts the block back into the system prompt.
      const system = { system: [] as string[] };
      await hooks['experimental.chat.system.transform']?.({ sessionID: OPENCODE_SESSION, model: { limit: { context: 200_000 } } }, system);
      assert.match(system.system.join('\n'), /<pinned>/);
    } finally {
      for (const key of Object.keys(env)) if (saved[key] === undefined) delete process.env[key];
      Object.assign(process.env, saved);
    }
  },
  mark: /pinned block sent: \d+ constraints?.* · re-injected after compaction/,
};

/** The panel's connection line, once it shows `state`. */
async function hooksLine(frame: Frame, state: 'connected' | 'partial' | 'disconnected'): Promise<Locator> {
  const line = frame.locator(`[data-testid="agent-hooks"][data-state="${state}"]`);
  await line.waitFor({ timeout: 30_000 });
  return line;
}

/** Answers the modal question VS Code shows with `button`, once it is there. */
async function answerDialog(page: Page, question: RegExp, button: string): Promise<void> {
  const dialog = page.locator('.monaco-dialog-box', { hasText: question });
  await dialog.waitFor({ timeout: 20_000 });
  await dialog.locator('.monaco-button', { hasText: new RegExp(`^${button}$`) }).click();
  await dialog.waitFor({ state: 'hidden', timeout: 10_000 });
}

for (const agent of [codex, gemini, opencode]) {
  describe(`Connect ${agent.name} from the panel, in code-server`, { timeout: 300_000 }, () => {
    const root = mkdtempSync(join(tmpdir(), `context-lens-connect-${agent.id}-`));
    const workspace = join(root, agent.folder);
    const stateHome = join(root, 'state');
    const folderName = agent.folder;
    let env: Record<string, string> = {};
    let workbench: Workbench;
    let page: Page;
    let frame: Frame;

    before(async () => {
      mkdirSync(workspace, { recursive: true });
      // The person's standing rule, which the block carries whatever the session says.
      mkdirSync(join(workspace, '.vscode'), { recursive: true });
      writeFileSync(
        join(workspace, '.vscode', 'settings.json'),
        JSON.stringify({ 'contextLens.preserve.pinnedConstraints': ['Never modify config/prod.yaml.'] }),
      );
      // Empty homes for the other agents, so nothing of this machine's own sessions is read.
      const empty = (name: string) => {
        mkdirSync(join(root, name), { recursive: true });
        return join(root, name);
      };
      env = {
        CODEX_HOME: empty('codex'),
        GEMINI_CLI_HOME: empty('gemini-home'),
        XDG_DATA_HOME: empty('data'),
        XDG_STATE_HOME: stateHome,
        ...(await agent.setUp(root, workspace)),
      };
      workbench = await startWorkbench({ workspace, theme: 'Default Dark Modern', claudeConfigDir: empty('claude'), env });
      page = workbench.page;
      await runCommand(page, 'Context Lens: Open Panel');
      frame = await webviewFrame(page);
    });

    after(async () => {
      await workbench?.close();
      rmSync(root, { recursive: true, force: true });
    });

    it(`shows ${agent.name}'s own connection line, not connected, and connects it from the panel`, async () => {
      const line = await hooksLine(frame, 'disconnected');
      assert.match(
        await line.innerText(),
        new RegExp(`${agent.name} ${agent.installs}: not connected — keep your constraints through ${agent.name}'s own compactions · Connect…`),
      );
      // What Connect would install and inject, on hover.
      assert.match((await line.getAttribute('title')) ?? '', /your rules, decisions and open loops/);
      await screenshot(page, `connect-${agent.id}-disconnected-dark`);

      await line.locator('button', { hasText: 'Connect…' }).click();
      const question = new RegExp(`Connect ${agent.name} in ${folderName}\\?`);
      await page.locator('.monaco-dialog-box', { hasText: question }).waitFor({ timeout: 20_000 });
      await screenshot(page, `connect-${agent.id}-dialog-dark`);
      await answerDialog(page, question, 'Connect');

      const connected = await hooksLine(frame, 'connected');
      const text = await connected.innerText();
      assert.match(text, new RegExp(`${agent.name} ${agent.installs}: connected in ${agent.where.replace(/\./g, '\\.')} · Disconnect`));
      // Codex runs a project's hook only once the person trusts it: the line says so instead of claiming it works.
      if (agent === codex) assert.match(text, /Codex runs it only once you trust this folder and the hook/);
      await screenshot(page, `connect-${agent.id}-connected-dark`);
    });

    it(`shows in the History that the block went in when ${agent.name} compacted itself`, async () => {
      await agent.compact(root, workspace, env);
      // The compaction and the hook runs reach the panel one after the other (the database, then the events
      // file): wait for the whole mark, not the first half of it.
      const mark = frame.locator('[data-testid="history-hooks"]', { hasText: agent.mark });
      await mark.waitFor({ timeout: 30_000 }).catch(async (error: unknown) => {
        const shown = await frame.locator('[data-testid="history-hooks"]').allInnerTexts();
        throw new Error(`the History's hook lines say ${JSON.stringify(shown)}`, { cause: error });
      });
      assert.equal(await mark.getAttribute('data-failed'), 'false');
      await mark.scrollIntoViewIfNeeded();
      await screenshot(page, `connect-${agent.id}-history-dark`);
    });

    it(`disconnects ${agent.name}, the viewed session's agent, from the command`, async () => {
      const files = agent.where.split(' and ').map((file) => join(workspace, file));
      await runCommand(page, 'Context Lens: Disconnect Agent…');
      await answerDialog(page, new RegExp(`Disconnect ${agent.name} in ${folderName}\\?`), 'Disconnect');
      await hooksLine(frame, 'disconnected');
      // Every file Connect created is gone again (none of them existed before).
      for (const file of files) assert.equal(existsSync(file), false, file);
    });
  });
}
