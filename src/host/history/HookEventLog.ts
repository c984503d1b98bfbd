// The hook events file, kept read: re-read when it changes so the History shows a hook run as soon
// as Claude Code's compaction finishes. The folder is watched because the file (and the folder)
// appear only with the first hook run; a slow poll covers file systems where fs.watch stays silent.
import { chmod, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import * as vscode from 'vscode';
import { ChangeSignal, SerialRunner } from '../../sessions/common/watch';
import { readHookEvents, type HookEvent } from './hookEvents';

export class HookEventLog implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  private readonly runner = new SerialRunner(() => this.read());
  private readonly signal: ChangeSignal;
  private current: readonly HookEvent[] = [];
  /** Size and mtime at the last read: the poll then costs one stat, not a 1 MiB read. */
  private stamp: string | null = null;

  constructor(
    private readonly path: string,
    private readonly log: vscode.LogOutputChannel,
  ) {
    this.signal = new ChangeSignal(dirname(path), { debounceMs: 200, pollMs: 2000 }, () => void this.runner.request());
    void this.runner.request();
  }

  get events(): readonly HookEvent[] {
    return this.current;
  }

  private async read(): Promise<void> {
    // The folder may have appeared since the last try.
    this.signal.rewatch();
    const stats = await stat(this.path).catch(() => null);
    const stamp = stats ? `${stats.size}:${stats.mtimeMs}` : 'missing';
    if (stamp === this.stamp) return;
    // The hooks write it 0600; one left readable by others by an older version is tightened.
    if (stats && (stats.mode & 0o077) !== 0) await chmod(this.path, 0o600).catch(() => undefined);
    this.stamp = stamp;
    try {
      this.current = await readHookEvents(this.path);
    } catch (error) {
      this.log.warn(`Reading the hook events in ${this.path} failed: ${error instanceof Error ? error.message : String(error)}`);
      this.current = [];
    }
    this.changed.fire();
  }

  dispose(): void {
    this.signal.dispose();
    this.changed.dispose();
  }
}
