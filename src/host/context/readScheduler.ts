// When the followed session's live context is read. The first read of a session starts at once:
// the panel shows "reading" until it lands, and nothing is gained by waiting. Later changes (the
// agent appending records in bursts) coalesce into one read a short while after the first of
// them. Never two reads at once: a request during a read reads once more after it.
import { Disposables } from '../disposables';

export class ReadScheduler extends Disposables {
  private timer: NodeJS.Timeout | undefined;
  private reading = false;
  private again = false;

  constructor(
    private readonly read: () => Promise<void>,
    private readonly debounceMs: number,
    /** A read that threw: said here, and the reads after it still happen. */
    private readonly failed: (error: unknown) => void,
  ) {
    super();
    this.onDispose(() => {
      clearTimeout(this.timer);
      this.timer = undefined;
    });
  }

  /** `now`: the session's first read; otherwise a change, read after the debounce. */
  request(now: boolean): void {
    if (now) {
      clearTimeout(this.timer);
      this.timer = undefined;
      void this.start();
      return;
    }
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      void this.start();
    }, this.debounceMs);
  }

  private async start(): Promise<void> {
    if (this.isDisposed) return;
    if (this.reading) {
      this.again = true;
      return;
    }
    this.reading = true;
    try {
      await this.read();
    } catch (error) {
      this.failed(error);
    } finally {
      this.reading = false;
    }
    if (this.again) {
      this.again = false;
      void this.start();
    }
  }
}
