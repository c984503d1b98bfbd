// A file of events another process appends to (our hooks, the live proxy), kept read: re-read when
// it changes so the panel shows what happened as soon as it is written. The folder is watched
// because the file (and the folder) appear only with the first event; a slow poll covers file
// systems where fs.watch stays silent. Only the file's tail is read: nothing rotates these files.
import { chmod, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import * as vscode from 'vscode';
import { ChangeSignal, SerialRunner } from '../../sessions/common/watch';
import { Disposables } from '../disposables';

export class EventFileLog<T> extends Disposables {
  private readonly changed = this.own(new vscode.EventEmitter<void>());
  readonly onDidChange = this.changed.event;
  private readonly runner = new SerialRunner(() => this.read());
  private readonly signal: ChangeSignal;
  private current: readonly T[] = [];
  /** Size and mtime at the last read: the poll then costs one stat, not a tail read. */
  private stamp: string | null = null;

  /** `readEvents`: the events of the file's tail (none for a missing file); `what` names them in the log. */
  constructor(
    private readonly path: string,
    private readonly readEvents: (path: string) => Promise<T[]>,
    private readonly what: string,
    private readonly log: vscode.LogOutputChannel,
  ) {
    super();
    this.signal = this.own(new ChangeSignal(dirname(path), { debounceMs: 200, pollMs: 2000 }, () => void this.runner.request()));
    void this.runner.request();
  }

  get events(): readonly T[] {
    return this.current;
  }

  private async read(): Promise<void> {
    // The folder may have appeared since the last try.
    this.signal.rewatch();
    const stats = await stat(this.path).catch(() => null);
    const stamp = stats ? `${stats.size}:${stats.mtimeMs}` : 'missing';
    if (stamp === this.stamp) return;
    // Written 0600; one left readable by others (an older version) is tightened.
    if (stats && (stats.mode & 0o077) !== 0) await chmod(this.path, 0o600).catch(() => undefined);
    this.stamp = stamp;
    try {
      this.current = await this.readEvents(this.path);
    } catch (error) {
      this.log.warn(`Reading the ${this.what} in ${this.path} failed: ${error instanceof Error ? error.message : String(error)}`);
      this.current = [];
    }
    this.changed.fire();
  }
}
