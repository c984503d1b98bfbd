// Connect / Disconnect Claude Code: writes (or removes) our PreCompact and SessionStart hooks and
// the status line in the workspace's `.claude/settings.local.json` and our MCP server in its
// `.mcp.json`, after showing each change in VS Code's diff editor and asking. Never clobbers: a
// file it cannot read as JSON is left alone, only our entries change, and the previous content is
// backed up (see settingsFile.ts).
import { join } from 'node:path';
import * as vscode from 'vscode';
import { changesOf, connectionCommands, mcpEntry, planConnection, saveConnection, type ConnectionCommands, type ConnectPlan, type ConnectVerb, type Saved } from '../../sessions/claude-code';
import type { DiffDocuments } from '../compaction/DiffDocuments';
import { commandPaths, installBundles, refreshBundles } from './launcher';

export interface ConnectorDeps {
  readonly extensionUri: vscode.Uri;
  readonly globalStorageUri: vscode.Uri;
  readonly version: string;
  readonly diffs: DiffDocuments;
  readonly log: vscode.LogOutputChannel;
}

interface Target {
  readonly folder: vscode.WorkspaceFolder;
  readonly plan: ConnectPlan;
}

export class ClaudeCodeConnector {
  private readonly distDir: string;
  private readonly binDir: string;

  constructor(private readonly deps: ConnectorDeps) {
    this.distDir = vscode.Uri.joinPath(deps.extensionUri, 'dist').fsPath;
    this.binDir = vscode.Uri.joinPath(deps.globalStorageUri, 'bin').fsPath;
    // Hooks written by an earlier version point at the copy: keep it current after an update.
    void refreshBundles(this.distDir, this.binDir, deps.version).then(
      (refreshed) => refreshed && deps.log.info(`Updated the Claude Code hook commands in ${this.binDir} to ${deps.version}`),
      (error: unknown) => deps.log.warn(`Could not update the Claude Code hook commands: ${String(error)}`),
    );
  }

  private paths() {
    return commandPaths({ pathEnv: process.env.PATH ?? '', platform: process.platform, execPath: process.execPath, isElectron: process.versions.electron !== undefined }, this.binDir);
  }

  /** The commands Connect writes; the panel's connection status looks for these same strings. */
  commands(): ConnectionCommands {
    return connectionCommands(this.paths());
  }

  async connect(): Promise<void> {
    const target = await this.target('connect');
    if (target === null) return;
    const confirmed = await this.confirm(target, {
      unchanged: 'Claude Code is already connected in this folder.',
      question: `Connect Claude Code in ${target.folder.name}?`,
      detail:
        'Adds a PreCompact hook (your prompts word for word, your rules, requests and open loops, and the standing focus go into every compaction), a SessionStart hook (re-injects them after a compaction) and, if you have none, the Context Lens status line to .claude/settings.local.json, ' +
        'and the Context Lens MCP server (the agent can ask for a compaction at a task boundary and recall what a live-proxy stub replaced) to .mcp.json. Claude Code asks once before it starts a project MCP server. The diff is open beside this dialog.',
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
    const commands = this.commands();
    this.deps.log.info(`Connected Claude Code in ${target.folder.uri.fsPath}: ${commands.preCompact} | ${commands.sessionStart} | ${commands.statusLine} | .mcp.json`);
    void vscode.window.showInformationMessage(`Context Lens: Claude Code is connected in ${target.folder.name}. Sessions started from now on use the hooks and the MCP tools.${notesOf(target.plan)}${backupNote(saved)}`);
  }

  async disconnect(): Promise<void> {
    const target = await this.target('disconnect');
    if (target === null) return;
    const confirmed = await this.confirm(target, {
      unchanged: 'Claude Code is not connected in this folder: nothing of Context Lens is in .claude/settings.local.json or .mcp.json.',
      question: `Disconnect Claude Code in ${target.folder.name}?`,
      detail: 'Removes exactly the hooks and status line that Connect added to .claude/settings.local.json and its MCP server from .mcp.json; everything else stays. The diff is open beside this dialog.',
      action: 'Disconnect',
    });
    if (!confirmed) return;
    const saved = await this.save(target);
    if (saved === null) return;
    const removed = saved.filter((one) => one.removed).length;
    this.deps.log.info(`Disconnected Claude Code in ${target.folder.uri.fsPath}${removed > 0 ? ` (removed ${removed} file(s) Connect had created)` : ''}`);
    void vscode.window.showInformationMessage(`Context Lens: Claude Code is disconnected in ${target.folder.name}.${removed > 0 ? ' Files Connect had created are removed.' : ''}${backupNote(saved)}`);
  }

  /** The workspace folder to act on (asked when there are several) and what would change in it. */
  private async target(verb: ConnectVerb): Promise<Target | null> {
    const folders = vscode.workspace.workspaceFolders ?? [];
    if (folders.length === 0) {
      void vscode.window.showWarningMessage(`Context Lens: open the folder you run \`claude\` in, then ${verb} again.`);
      return null;
    }
    const folder = folders.length === 1 ? folders[0] : await vscode.window.showWorkspaceFolderPick({ placeHolder: `Folder whose Claude Code settings to ${verb}` });
    if (!folder) return null;
    const paths = this.paths();
    const planned = await planConnection(verb, folder.uri.fsPath, connectionCommands(paths), mcpEntry({ node: paths.node, electronRunAsNode: paths.electronRunAsNode ?? false, cli: join(this.binDir, 'cli.js') }));
    if (!planned.ok) {
      void vscode.window.showErrorMessage(`Context Lens: ${planned.error.message}`);
      return null;
    }
    return { folder, plan: planned.value };
  }

  /** Shows the diff of every file that changes and asks; true when the person agreed. */
  private async confirm(target: Target, words: { unchanged: string; question: string; detail: string; action: string }): Promise<boolean> {
    const { plan } = target;
    if (!plan.settings.edit.ok) {
      const choice = await vscode.window.showErrorMessage(`Context Lens: ${plan.settings.edit.error}`, 'Open File');
      if (choice) await vscode.window.showTextDocument(vscode.Uri.file(plan.settings.file.target));
      return false;
    }
    const changes = changesOf(plan);
    if (changes.length === 0) {
      void vscode.window.showInformationMessage(`Context Lens: ${words.unchanged}${notesOf(plan)}`);
      return false;
    }
    // One diff for every file that changes, each a fenced block under its name: the dialog is modal,
    // so the person reviews everything at once instead of one diff hiding another. Markdown keeps
    // the JSON highlighted without a JSON checker flagging two documents in one.
    const names = changes.map(({ file }) => vscode.workspace.asRelativePath(file.path, false));
    const all = changes.flatMap(({ file, text }) => [file.text ?? '', text]).join('\n');
    // A fence longer than any run of backticks in the files, so none of their text can end it.
    const fence = '`'.repeat(Math.max(3, ...(all.match(/`+/g) ?? []).map((run) => run.length + 1)));
    const side = (texts: readonly string[]): string => texts.map((text, index) => `## ${names[index] ?? ''}\n\n${fence}jsonc\n${text}${text.endsWith('\n') || text === '' ? '' : '\n'}${fence}\n`).join('\n');
    const pair = this.deps.diffs.prepare('connect', `claude-connect-${Date.now()}`, side(changes.map(({ file }) => file.text ?? '')), side(changes.map(({ text }) => text)), 'claude-code-connect.md');
    await this.deps.diffs.show(pair, `${names.join(' + ')} (${target.folder.name}) ↔ ${words.action.toLowerCase()}ed`);
    const choice = await vscode.window.showInformationMessage(words.question, { modal: true, detail: `${words.detail}${notesOf(plan)}` }, words.action);
    return choice === words.action;
  }

  /** Writes the plan; what was saved, or null when a file could not be written (said in an error). */
  private async save(target: Target): Promise<Saved[] | null> {
    const results = await saveConnection(target.plan, process.env);
    const failed = results.find((one) => !one.saved.ok);
    if (failed && !failed.saved.ok) {
      void vscode.window.showErrorMessage(`Context Lens: could not write ${failed.file.target}: ${failed.saved.error.message}`);
      return null;
    }
    return results.flatMap((one) => (one.saved.ok ? [one.saved.value] : []));
  }
}

function backupNote(saved: readonly Saved[]): string {
  const backups = saved.flatMap((one) => (one.backup === null ? [] : [one.backup]));
  return backups.length === 0 ? '' : ` The previous content is in ${backups.join(' and ')}.`;
}

function notesOf(plan: ConnectPlan): string {
  return plan.notes.length > 0 ? ` ${plan.notes.join(' ')}` : '';
}
