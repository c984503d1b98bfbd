// The variables this extension puts into VS Code's new terminals (the live proxy's
// ANTHROPIC_BASE_URL, its commands' folder on PATH, the resident reader's socket). One owner, because the collection has one
// description for all of them and clearing it for one would silently drop the others.
import type * as vscode from 'vscode';

export class TerminalEnvironment {
  /** Why each variable is set, in the words the terminal's hover shows. */
  private readonly reasons = new Map<string, string>();

  constructor(private readonly collection: vscode.GlobalEnvironmentVariableCollection) {
    // Everything here lives and dies with this window: never restored into the terminals of the
    // next one (not persisted), and whatever an earlier version left is cleared.
    collection.persistent = false;
    collection.clear();
  }

  set(name: string, value: string, reason: string): void {
    this.reasons.set(name, reason);
    this.collection.replace(name, value);
    this.describe();
  }

  /** `value` put before the variable's own (a folder first on PATH, `value` ending in the delimiter). */
  prepend(name: string, value: string, reason: string): void {
    this.reasons.set(name, reason);
    this.collection.prepend(name, value);
    this.describe();
  }

  delete(name: string): void {
    if (!this.reasons.delete(name)) return;
    this.collection.delete(name);
    this.describe();
  }

  private describe(): void {
    this.collection.description = [...this.reasons.values()].join(' ') || undefined;
  }
}
