// Our applied compactions, per session file, in workspaceState: they belong to this workspace's
// sessions and must survive reloads (the agent's own compactions are read from the transcript).
import * as vscode from 'vscode';
import { appended, type OurCompaction } from './history';
import { Disposables } from '../disposables';

const KEY = 'contextLens.history';

type Stored = Record<string, OurCompaction[]>;

export class HistoryStore extends Disposables {
  private readonly changed = this.own(new vscode.EventEmitter<void>());
  readonly onDidChange = this.changed.event;

  constructor(private readonly state: vscode.Memento) {
    super();
  }

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
}
