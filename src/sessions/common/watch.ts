// A change signal for a path that survives what editors and agents do to files: fs.watch for
// speed, a slow poll because fs.watch misses events on some file systems and dies when the file is
// deleted or replaced, and a leading-edge debounce so the first change is read at once and a burst
// of appends after it costs one more read.
import { watch, type FSWatcher } from 'node:fs';

export interface ChangeSignalOptions {
  debounceMs: number;
  pollMs: number;
}

export class ChangeSignal {
  private watcher: FSWatcher | null = null;
  private readonly poll: NodeJS.Timeout;
  /** The window opened by the last fire; changes during it only set `pending`. */
  private debounce: NodeJS.Timeout | null = null;
  private pending = false;
  private disposed = false;

  constructor(
    private readonly path: string,
    private readonly options: ChangeSignalOptions,
    private readonly fire: () => void,
  ) {
    // Following is an active subscription: it keeps the process alive until dispose().
    this.poll = setInterval(() => this.fire(), options.pollMs);
    this.rewatch();
  }

  /** (Re)attaches fs.watch, e.g. after the file was recreated; harmless when already attached. */
  rewatch(): void {
    if (this.disposed || this.watcher !== null) return;
    try {
      this.watcher = watch(this.path, () => this.schedule());
      this.watcher.on('error', () => this.unwatch());
    } catch {
      // Missing or unreadable right now: the poll keeps checking and calls rewatch() later.
      this.watcher = null;
    }
  }

  /** Drops fs.watch (it goes stale once its file is deleted or renamed away). */
  unwatch(): void {
    this.watcher?.close();
    this.watcher = null;
  }

  /**
   * Fires at once after a quiet period (a single append is read without delay); changes within
   * `debounceMs` of a fire are coalesced into one trailing fire, which opens the next window.
   */
  schedule(): void {
    if (this.disposed) return;
    if (this.debounce !== null) {
      this.pending = true;
      return;
    }
    this.fire();
    this.debounce = setTimeout(() => this.closeWindow(), this.options.debounceMs);
  }

  private closeWindow(): void {
    this.debounce = null;
    if (!this.pending) return;
    this.pending = false;
    this.schedule();
  }

  dispose(): void {
    this.disposed = true;
    this.unwatch();
    clearInterval(this.poll);
    if (this.debounce !== null) clearTimeout(this.debounce);
    this.debounce = null;
    this.pending = false;
  }
}

/**
 * Runs `task` one at a time; a request arriving while it runs causes exactly one more run, so no
 * change is missed and reads never overlap. A failed run ends the current series (its requesters
 * get the rejection) and the next request starts afresh. Watchers request without awaiting, so the
 * returned promise never counts as unhandled: tasks report their own problems.
 */
export class SerialRunner {
  private running: Promise<void> | null = null;
  private again = false;

  constructor(private readonly task: () => Promise<void>) {}

  request(): Promise<void> {
    if (this.running !== null) {
      this.again = true;
      return this.running;
    }
    // `finally` runs as a promise reaction, so it never precedes this assignment.
    const running = this.drain().finally(() => {
      this.running = null;
    });
    running.catch(() => undefined);
    this.running = running;
    return running;
  }

  private async drain(): Promise<void> {
    do {
      this.again = false;
      await this.task();
    } while (this.again);
  }
}
