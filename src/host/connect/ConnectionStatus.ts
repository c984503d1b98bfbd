// Whether the followed agent (the viewed session's, followedAgent.ts) is connected in the first
// workspace folder, for the panel: re-read when that agent's files change (the agent, the person or
// the CLI may edit them), when another agent is followed, and after Connect or Disconnect, matched
// against the same commands Connect writes.
import * as vscode from 'vscode';
import type { CommandPaths, ConnectionState } from '../../sessions/connection';
import type { Connectable } from '../../sessions/connectable';
import type { FollowedConnection } from './followedAgent';
import { SerialRunner } from '../../sessions/common/watch';
import { Disposables } from '../disposables';

/** An editor's save or an atomic rename fires several events; one read covers them. */
const DEBOUNCE_MS = 150;

export class ConnectionStatus extends Disposables {
  private readonly changed = this.own(new vscode.EventEmitter<void>());
  readonly onDidChange = this.changed.event;
  private readonly runner = new SerialRunner(() => this.read());
  private watchers: vscode.FileSystemWatcher[] = [];
  private debounce: NodeJS.Timeout | undefined;
  private state: FollowedConnection | null = null;

  constructor(
    /** Undefined when no agent is followed (no session, or its agent cannot be connected): the state is then null. */
    private agent: Connectable | undefined,
    private readonly paths: () => Promise<CommandPaths>,
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
      this.watchers.forEach((watcher) => watcher.dispose());
    });
    this.watch();
    void this.refresh();
  }

  /** null when no workspace folder is open or no agent is followed. */
  get current(): FollowedConnection | null {
    return this.state;
  }

  /** Follows `agent` from now on (its files watched, its state read); the same agent again changes nothing. */
  follow(agent: Connectable | undefined): void {
    if (agent?.adapter.id === this.agent?.adapter.id) return;
    this.agent = agent;
    this.watch();
    void this.refresh();
  }

  /** Re-reads now; resolves once the newest state is known (and announced if it changed). */
  refresh(): Promise<void> {
    return this.runner.request();
  }

  private watch(): void {
    this.watchers.forEach((watcher) => watcher.dispose());
    const folder = vscode.workspace.workspaceFolders?.[0];
    this.watchers =
      folder && this.agent
        ? this.agent.connection.watchFiles.map((file) => vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(folder, file)))
        : [];
    const schedule = () => {
      clearTimeout(this.debounce);
      this.debounce = setTimeout(() => void this.refresh(), DEBOUNCE_MS);
    };
    for (const watcher of this.watchers) {
      watcher.onDidCreate(schedule);
      watcher.onDidChange(schedule);
      watcher.onDidDelete(schedule);
    }
  }

  private async read(): Promise<void> {
    const folder = vscode.workspace.workspaceFolders?.[0];
    const agent = this.agent;
    const state = folder && agent ? { agentId: agent.adapter.id, state: await this.stateOf(agent, folder.uri.fsPath) } : null;
    if (state?.agentId === this.state?.agentId && state?.state === this.state?.state) return;
    this.state = state;
    this.changed.fire();
  }

  private async stateOf({ adapter, connection }: Connectable, folder: string): Promise<ConnectionState> {
    const read = await connection.state(folder, await this.paths());
    if (read.ok) return read.value;
    // Unreadable: nothing of ours can run from it either. Connect then says what is wrong.
    this.log.warn(`Could not read ${read.error.path ?? folder} for the ${adapter.name} connection status: ${read.error.message}`);
    return 'disconnected';
  }
}
