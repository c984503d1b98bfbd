// Connect / Disconnect Claude Code: writes (or removes) our PreCompact and SessionStart hooks and
// the status line in the workspace's `.claude/settings.local.json`, after showing the change in
// VS Code's diff editor and asking. Never clobbers: a file it cannot read as JSON is left alone,
// only our entries change, and the previous content is backed up (see settingsFile.ts).
import * as vscode from 'vscode';
import { connect, connectionCommands, disconnect, readSettings, saveConnected, saveDisconnected, settingsPath, SETTINGS_FILE, type ConnectionCommands, type Saved, type SettingsEdit, type SettingsFile } from '../../sessions/claude-code';
import type { Result } from '../../sessions/types';
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
  readonly file: SettingsFile;
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

  /** The commands Connect writes; the panel's connection status looks for these same strings. */
  commands(): ConnectionCommands {
    return connectionCommands(commandPaths({ pathEnv: process.env.PATH ?? '', platform: process.platform, execPath: process.execPath, isElectron: process.versions.electron !== undefined }, this.binDir));
  }

  async connect(): Promise<void> {
    const target = await this.target('connect');
    if (target === null) return;
    const commands = this.commands();
    const edit = connect(target.file.text, commands);
    const confirmed = await this.confirm(target, edit, {
      unchanged: 'Claude Code is already connected in this folder.',
      question: `Connect Claude Code in ${target.folder.name}?`,
      detail: 'Adds a PreCompact hook (your pinned constraints, open loops and standing focus go into every compaction), a SessionStart hook (re-injects them after a compaction) and, if you have none, the Context Lens status line to .claude/settings.local.json. The diff is open beside this dialog.',
      action: 'Connect',
    });
    if (confirmed === null) return;
    try {
      await installBundles(this.distDir, this.binDir, this.deps.version);
    } catch (error) {
      void vscode.window.showErrorMessage(`Context Lens: could not install the hook commands in ${this.binDir}: ${String(error)}`);
      return;
    }
    const saved = await this.save(target, saveConnected(target.file, confirmed, process.env));
    if (saved === null) return;
    this.deps.log.info(`Connected Claude Code in ${target.file.target}: ${commands.preCompact} | ${commands.sessionStart} | ${commands.statusLine}`);
    void vscode.window.showInformationMessage(`Context Lens: Claude Code is connected in ${target.folder.name}. Sessions started from now on use the hooks.${notesOf(edit)}${backupNote(saved)}`);
  }

  async disconnect(): Promise<void> {
    const target = await this.target('disconnect');
    if (target === null) return;
    const edit = disconnect(target.file.text, this.commands());
    const confirmed = await this.confirm(target, edit, {
      unchanged: 'Claude Code is not connected in this folder: nothing of Context Lens is in .claude/settings.local.json.',
      question: `Disconnect Claude Code in ${target.folder.name}?`,
      detail: 'Removes exactly the hooks and status line that Connect added to .claude/settings.local.json; everything else stays. The diff is open beside this dialog.',
      action: 'Disconnect',
    });
    if (confirmed === null) return;
    const saved = await this.save(target, saveDisconnected(target.file, confirmed, process.env));
    if (saved === null) return;
    this.deps.log.info(`Disconnected Claude Code in ${target.file.target}${saved.removed ? ' (removed the file Connect had created)' : ''}`);
    void vscode.window.showInformationMessage(`Context Lens: Claude Code is disconnected in ${target.folder.name}.${saved.removed ? ' Connect had created .claude/settings.local.json, so it is removed.' : ''}${backupNote(saved)}`);
  }

  /** The workspace folder to act on (asked when there are several) and its settings file's text. */
  private async target(verb: string): Promise<Target | null> {
    const folders = vscode.workspace.workspaceFolders ?? [];
    if (folders.length === 0) {
      void vscode.window.showWarningMessage(`Context Lens: open the folder you run \`claude\` in, then ${verb} again.`);
      return null;
    }
    const folder = folders.length === 1 ? folders[0] : await vscode.window.showWorkspaceFolderPick({ placeHolder: `Folder whose Claude Code settings to ${verb}` });
    if (!folder) return null;
    const read = await readSettings(settingsPath(folder.uri.fsPath));
    if (!read.ok) {
      void vscode.window.showErrorMessage(`Context Lens: ${read.error.message}`);
      return null;
    }
    return { folder, file: read.value };
  }

  /** Shows the diff and asks; the new text when the person agreed, else null. */
  private async confirm(target: Target, edit: SettingsEdit, words: { unchanged: string; question: string; detail: string; action: string }): Promise<string | null> {
    if (!edit.ok) {
      const choice = await vscode.window.showErrorMessage(`Context Lens: ${edit.error}`, 'Open File');
      if (choice) await vscode.window.showTextDocument(vscode.Uri.file(target.file.target));
      return null;
    }
    if (!edit.changed) {
      void vscode.window.showInformationMessage(`Context Lens: ${words.unchanged}${notesOf(edit)}`);
      return null;
    }
    await this.deps.diffs.show(`claude-settings-${Date.now()}`, target.file.text ?? '', edit.text, `${SETTINGS_FILE.join('/')} (${target.folder.name}) ↔ ${words.action.toLowerCase()}ed`, 'settings.local.json');
    const choice = await vscode.window.showInformationMessage(words.question, { modal: true, detail: `${words.detail}${notesOf(edit)}` }, words.action);
    return choice === words.action ? edit.text : null;
  }

  private async save(target: Target, saving: Promise<Result<Saved>>): Promise<Saved | null> {
    const saved = await saving;
    if (saved.ok) return saved.value;
    void vscode.window.showErrorMessage(`Context Lens: could not write ${target.file.target}: ${saved.error.message}`);
    return null;
  }
}

function backupNote(saved: Saved): string {
  return saved.backup === null ? '' : ` The previous content is in ${saved.backup}.`;
}

function notesOf(edit: SettingsEdit): string {
  return edit.ok && edit.notes.length > 0 ? ` ${edit.notes.join(' ')}` : '';
}
