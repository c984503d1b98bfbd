// A change signal for a path that survives what editors and agents do to files: fs.watch for
// speed, a slow poll because fs.watch misses events on some file systems and dies when the file is
// deleted or replaced, and a debounce so a burst of appends costs one read.
import { watch, type FSWatcher } from 'node:fs';

export interface ChangeSignalOptions {
  debounceMs: number;
  pollMs: number;
}

export class ChangeSignal {
  private watcher: FSWatcher | null = null;
  private readonly poll: NodeJS.Timeout;
  private debounce: NodeJS.Timeout | null = null;
  private disposed = false;

  constructor(private readonly path: string, private readonly options: ChangeSignalOptions, private readonly fire: () => void) {
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

  schedule(): void {
    if (this.disposed) return;
    if (this.debounce !== null) clearTimeout(this.debounce);
    this.debounce = setTimeout(() => {
      this.debounce = null;
      this.fire();
    }, this.options.debounceMs);
  }

  dispose(): void {
    this.disposed = true;
    this.unwatch();
    clearInterval(this.poll);
    if (this.debounce !== null) clearTimeout(this.debounce);
    this.debounce = null;
  }
}

/**
 * Runs `task` one at a time; a request arriving while it runs causes exactly one more run, so no
 * change is missed and reads never overlap.
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
    this.running = (async () => {
      do {
        this.again = false;
        await this.task();
      } while (this.again);
      this.running = null;
    })();
    return this.running;
  }
}
