// Connect / Disconnect an agent (any adapter with a `connection`: Claude Code's hooks, status line
// and MCP server, Codex's and Gemini CLI's hooks, OpenCode's plugin, in the workspace's files), after
// showing each change in VS Code's diff editor and asking. The agent is the viewed session's
// (followedAgent.ts); with none, the person picks. Never clobbers: a file the agent's connection
// cannot edit safely is left alone, only our entries change, and the previous content is backed
// up. The commands keep their ids (contextLens.connectClaudeCode, …) so key bindings and menus
// still work.
import * as vscode from 'vscode';
import type { CommandPaths, ConnectionPlan, ConnectVerb, Saved } from '../../sessions/connection';
import type { Connectable } from '../../sessions/connectable';
import type { DiffDocuments } from '../compaction/DiffDocuments';
import { agentWithoutAsking } from './followedAgent';
import { commandPaths, installBundles, refreshBundles } from './launcher';
import { hostWhere, launcherOnPath } from '../cliLauncher';

export interface ConnectorDeps {
  readonly extensionUri: vscode.Uri;
  readonly globalStorageUri: vscode.Uri;
  readonly version: string;
  readonly diffs: DiffDocuments;
  readonly log: vscode.LogOutputChannel;
}

interface Target {
  readonly agent: Connectable;
  readonly folder: vscode.WorkspaceFolder;
  readonly plan: ConnectionPlan;
}

export class AgentConnector {
  private readonly distDir: string;
  private readonly binDir: string;

  /**
   * `agents`: those that can be connected, in the registry's order; `followed`: the viewed session's,
   * acted on without asking (with none, the person picks among `agents` when there are several).
   */
  constructor(
    private readonly agents: readonly Connectable[],
    private readonly followed: () => Connectable | undefined,
    private readonly deps: ConnectorDeps,
  ) {
    this.distDir = vscode.Uri.joinPath(deps.extensionUri, 'dist').fsPath;
    this.binDir = vscode.Uri.joinPath(deps.globalStorageUri, 'bin').fsPath;
    // Hooks written by an earlier version point at the copy: keep it current after an update.
    void refreshBundles(this.distDir, this.binDir, deps.version).then(
      (refreshed) => refreshed && deps.log.info(`Updated the hook commands in ${this.binDir} to ${deps.version}`),
      (error: unknown) => deps.log.warn(`Could not update the hook commands: ${String(error)}`),
    );
  }

  /** Where the commands Connect writes run from; the panel's connection status looks for these same commands. */
  async paths(): Promise<CommandPaths> {
    return {
      ...commandPaths(
        { pathEnv: process.env.PATH ?? '', platform: process.platform, execPath: process.execPath, isElectron: process.versions.electron !== undefined },
        this.binDir,
      ),
      viaLauncher: await launcherOnPath(hostWhere(process.env, process.platform)),
    };
  }

  async connect(): Promise<void> {
    const target = await this.target('connect');
    if (target === null) return;
    const { adapter, connection } = target.agent;
    const confirmed = await this.confirm(target, {
      unchanged: `${adapter.name} is already connected in this folder.`,
      question: `Connect ${adapter.name} in ${target.folder.name}?`,
      detail: `${connection.describe.connect} The diff is open beside this dialog.`,
      action: 'Connect',
    });
    if (!confirmed) return;
    try {
      await installBundles(this.distDir, this.binDir, this.deps.version);
    } catch (error) {
      void vscode.window.showErrorMessage(`Context Lens: could not install the hook commands in ${this.binDir}: ${String(error)}`);
      return;
    }
    const saved = await this.save(target);
    if (saved === null) return;
    this.deps.log.info(`Connected ${adapter.name} in ${target.folder.uri.fsPath}: ${target.plan.changes.map((change) => change.target).join(' | ')}`);
    void vscode.window.showInformationMessage(
      `Context Lens: ${adapter.name} is connected in ${target.folder.name}. ${adapter.name} sessions started from now on use it.${notesOf(target.plan)}${backupNote(saved)}`,
    );
  }

  async disconnect(): Promise<void> {
    const target = await this.target('disconnect');
    if (target === null) return;
    const { adapter, connection } = target.agent;
    const confirmed = await this.confirm(target, {
      unchanged: `${adapter.name} is not connected in this folder: nothing of Context Lens is in ${connection.watchFiles.join(' or ')}.`,
      question: `Disconnect ${adapter.name} in ${target.folder.name}?`,
      detail: `${connection.describe.disconnect} The diff is open beside this dialog.`,
      action: 'Disconnect',
    });
    if (!confirmed) return;
    const saved = await this.save(target);
    if (saved === null) return;
    const removed = saved.filter((one) => one.removed).length;
    this.deps.log.info(`Disconnected ${adapter.name} in ${target.folder.uri.fsPath}${removed > 0 ? ` (removed ${removed} file(s) Connect had created)` : ''}`);
    void vscode.window.showInformationMessage(
      `Context Lens: ${adapter.name} is disconnected in ${target.folder.name}.${removed > 0 ? ' Files Connect had created are removed.' : ''}${backupNote(saved)}`,
    );
  }

  /** The agent to act on: the viewed session's, the only one, or the one the person picks. */
  private async agent(verb: ConnectVerb): Promise<Connectable | null> {
    const known = agentWithoutAsking(this.followed(), this.agents);
    if (known !== null || this.agents.length === 0) return known;
    const picked = await vscode.window.showQuickPick(
      this.agents.map((agent) => ({ label: agent.adapter.name, description: agent.connection.watchFiles.join(', '), agent })),
      { placeHolder: `Agent to ${verb} in this workspace (no session of a connectable agent is open in the panel)` },
    );
    return picked?.agent ?? null;
  }

  /** The workspace folder to act on (asked when there are several) and what would change in it. */
  private async target(verb: ConnectVerb): Promise<Target | null> {
    const agent = await this.agent(verb);
    if (agent === null) return null;
    const folders = vscode.workspace.workspaceFolders ?? [];
    if (folders.length === 0) {
      void vscode.window.showWarningMessage(`Context Lens: open the folder you run \`${agent.adapter.command}\` in, then ${verb} again.`);
      return null;
    }
    const folder =
      folders.length === 1
        ? folders[0]
        : await vscode.window.showWorkspaceFolderPick({ placeHolder: `Folder whose ${agent.adapter.name} settings to ${verb}` });
    if (!folder) return null;
    const planned = await agent.connection.plan(verb, folder.uri.fsPath, await this.paths());
    if (!planned.ok) {
      void vscode.window.showErrorMessage(`Context Lens: ${planned.error.message}`);
      return null;
    }
    return { agent, folder, plan: planned.value };
  }

  /** Shows the diff of every file that changes and asks; true when the person agreed. */
  private async confirm(target: Target, words: { unchanged: string; question: string; detail: string; action: string }): Promise<boolean> {
    const { plan } = target;
    if (plan.refused !== null) {
      const { message, path } = plan.refused;
      const choice = await vscode.window.showErrorMessage(`Context Lens: ${message}`, 'Open File');
      if (choice) await vscode.window.showTextDocument(vscode.Uri.file(path));
      return false;
    }
    const changes = plan.changes;
    if (changes.length === 0) {
      void vscode.window.showInformationMessage(`Context Lens: ${words.unchanged}${notesOf(plan)}`);
      return false;
    }
    // One diff for every file that changes, each a fenced block under its name: the dialog is modal,
    // so the person reviews everything at once instead of one diff hiding another. Markdown keeps
    // the JSON highlighted without a JSON checker flagging two documents in one.
    const names = changes.map(({ path }) => vscode.workspace.asRelativePath(path, false));
    const all = changes.flatMap(({ before, after }) => [before ?? '', after]).join('\n');
    // A fence longer than any run of backticks in the files, so none of their text can end it.
    const fence = '`'.repeat(Math.max(3, ...(all.match(/`+/g) ?? []).map((run) => run.length + 1)));
    const side = (texts: readonly string[]): string =>
      texts
        .map(
          (text, index) =>
            `## ${names[index] ?? ''}\n\n${fence}${fenceLanguage(names[index] ?? '')}\n${text}${text.endsWith('\n') || text === '' ? '' : '\n'}${fence}\n`,
        )
        .join('\n');
    const id = target.agent.adapter.id;
    const pair = this.deps.diffs.prepare(
      'connect',
      `${id}-connect-${Date.now()}`,
      side(changes.map(({ before }) => before ?? '')),
      side(changes.map(({ after }) => after)),
      `${id}-connect.md`,
    );
    await this.deps.diffs.show(pair, `${names.join(' + ')} (${target.folder.name}) ↔ ${words.action.toLowerCase()}ed`);
    const choice = await vscode.window.showInformationMessage(words.question, { modal: true, detail: `${words.detail}${notesOf(plan)}` }, words.action);
    return choice === words.action;
  }

  /** Writes the plan; what was saved, or null when a file could not be written (said in an error). */
  private async save(target: Target): Promise<Saved[] | null> {
    const results = await target.agent.connection.save(target.plan, process.env);
    const failed = results.find((one) => !one.saved.ok);
    if (failed && !failed.saved.ok) {
      void vscode.window.showErrorMessage(`Context Lens: could not write ${failed.change.target}: ${failed.saved.error.message}`);
      return null;
    }
    return results.flatMap((one) => (one.saved.ok ? [one.saved.value] : []));
  }
}

function backupNote(saved: readonly Saved[]): string {
  const backups = saved.flatMap((one) => (one.backup === null ? [] : [one.backup]));
  return backups.length === 0 ? '' : ` The previous content is in ${backups.join(' and ')}.`;
}

function notesOf(plan: ConnectionPlan): string {
  return plan.notes.length > 0 ? ` ${plan.notes.join(' ')}` : '';
}

/** The highlighting of a file's block in the diff: Codex's config is TOML, OpenCode's plugin JavaScript, the rest JSON with comments. */
function fenceLanguage(name: string): string {
  if (name.endsWith('.toml')) return 'toml';
  return /\.[cm]?[jt]s$/.test(name) ? 'js' : 'jsonc';
}
