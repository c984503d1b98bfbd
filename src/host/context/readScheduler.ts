// When the followed session's live context is read. The first read of a session starts at once:
// the panel shows "reading" until it lands, and nothing is gained by waiting. Later changes (the
// agent appending records in bursts) coalesce into one read a short while after the first of
// them. Never two reads at once: a request during a read reads once more after it.
// A read that failed (the agent's files caught mid-write, its costs not priced) is made again a
// little later, a few times: the follower retries its own reads at its next poll, so without this
// the gauge would follow while the breakdown, costs and timeline stayed on the previous change
// until the agent wrote again (for an agent that has exited: never).
import { Disposables } from '../disposables';

/** A failed read is made again after this, doubled each time, this many times at most. */
export const RETRY_FIRST_MS = 500;
export const RETRY_TIMES = 5;

/** What a read reports: `failed` asks for it to be made again later. */
export type ReadOutcome = 'done' | 'failed';

export class ReadScheduler extends Disposables {
  private timer: NodeJS.Timeout | undefined;
  private retryTimer: NodeJS.Timeout | undefined;
  /** Failed reads in a row since the last request or success. */
  private failures = 0;
  private reading = false;
  private again = false;

  constructor(
    private readonly read: () => Promise<ReadOutcome | void>,
    private readonly debounceMs: number,
    /** A read that threw: said here, and the reads after it still happen. */
    private readonly failed: (error: unknown) => void,
  ) {
    super();
    this.onDispose(() => {
      clearTimeout(this.timer);
      clearTimeout(this.retryTimer);
      this.timer = undefined;
      this.retryTimer = undefined;
    });
  }

  /** `now`: the session's first read; otherwise a change, read after the debounce. */
  request(now: boolean): void {
    // A new change is read anyway: the retries of the last one start over after it.
    this.failures = 0;
    clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
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
    let outcome: ReadOutcome | void;
    try {
      outcome = await this.read();
    } catch (error) {
      this.failed(error);
      outcome = 'failed';
    } finally {
      this.reading = false;
    }
    if (this.again) {
      this.again = false;
      void this.start();
      return;
    }
    if (outcome !== 'failed') {
      this.failures = 0;
      return;
    }
    if (this.isDisposed || this.failures >= RETRY_TIMES || this.timer !== undefined) return;
    const delay = RETRY_FIRST_MS * 2 ** this.failures++;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      void this.start();
    }, delay);
  }
}
