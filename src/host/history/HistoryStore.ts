// Our applied compactions, per session file, in workspaceState: they belong to this workspace's
// sessions and must survive reloads (the agent's own compactions are read from the transcript).
import * as vscode from 'vscode';
import { appended, type OurCompaction } from './history';

const KEY = 'contextLens.history';

type Stored = Record<string, OurCompaction[]>;

export class HistoryStore implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;

  constructor(private readonly state: vscode.Memento) {}

  of(sessionPath: string): readonly OurCompaction[] {
    return this.state.get<Stored>(KEY, {})[sessionPath] ?? [];
  }

  /** Recorded under the source session and under the fork, which continues it. */
  async add(paths: readonly string[], entry: OurCompaction): Promise<void> {
    const stored = { ...this.state.get<Stored>(KEY, {}) };
    for (const path of paths) stored[path] = appended(stored[path] ?? [], entry);
    await this.state.update(KEY, stored);
    this.changed.fire();
  }

  dispose(): void {
    this.changed.dispose();
  }
}
