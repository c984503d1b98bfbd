// Whether Claude Code is connected in the first workspace folder, for the panel: re-read when the
// settings file changes (Claude Code, the person or the CLI may edit it) and after Connect or
// Disconnect, matched against the same commands Connect writes.
import * as vscode from 'vscode';
import { connectionState, readSettings, settingsPath, SETTINGS_FILE, type ConnectionCommands, type ConnectionState } from '../../sessions/claude-code';
import { SerialRunner } from '../../sessions/common/watch';
import { Disposables } from '../disposables';

/** An editor's save or an atomic rename fires several events; one read covers them. */
const DEBOUNCE_MS = 150;

export class ConnectionStatus extends Disposables {
  private readonly changed = this.own(new vscode.EventEmitter<void>());
  readonly onDidChange = this.changed.event;
  private readonly runner = new SerialRunner(() => this.read());
  private watcher: vscode.FileSystemWatcher | null = null;
  private debounce: NodeJS.Timeout | undefined;
  private state: ConnectionState | null = null;

  constructor(
    private readonly commands: () => ConnectionCommands,
    private readonly log: vscode.LogOutputChannel,
  ) {
    super();
    this.own(
      vscode.workspace.onDidChangeWorkspaceFolders(() => {
        this.watch();
        void this.refresh();
      }),
    );
    this.onDispose(() => {
      clearTimeout(this.debounce);
      this.watcher?.dispose();
    });
    this.watch();
    void this.refresh();
  }

  /** null when no workspace folder is open. */
  get current(): ConnectionState | null {
    return this.state;
  }

  /** Re-reads now; resolves once the newest state is known (and announced if it changed). */
  refresh(): Promise<void> {
    return this.runner.request();
  }

  private watch(): void {
    this.watcher?.dispose();
    const folder = vscode.workspace.workspaceFolders?.[0];
    this.watcher = folder ? vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(folder, SETTINGS_FILE.join('/'))) : null;
    const schedule = () => {
      clearTimeout(this.debounce);
      this.debounce = setTimeout(() => void this.refresh(), DEBOUNCE_MS);
    };
    this.watcher?.onDidCreate(schedule);
    this.watcher?.onDidChange(schedule);
    this.watcher?.onDidDelete(schedule);
  }

  private async read(): Promise<void> {
    const folder = vscode.workspace.workspaceFolders?.[0];
    const state = folder ? await this.stateOf(settingsPath(folder.uri.fsPath)) : null;
    if (state === this.state) return;
    this.state = state;
    this.changed.fire();
  }

  private async stateOf(path: string): Promise<ConnectionState> {
    const read = await readSettings(path);
    if (read.ok) return connectionState(read.value.text, this.commands());
    // Unreadable: nothing of ours can run from it either. Connect then says what is wrong.
    this.log.warn(`Could not read ${path} for the Claude Code connection status: ${read.error.message}`);
    return 'disconnected';
  }

}
