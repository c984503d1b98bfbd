// Live follow of a session whose files are rewritten rather than appended to (Cline's JSON files,
// an OpenCode-family database and its log): the files are watched (watch.ts: fs.watch plus a poll)
// and, when one's inode, size or time moved, the session is read again whole, one read at a time.
// The agent decides what the files are and how a read goes; the deciding of what changed is here.
import { EventEmitter } from 'node:events';
import { stat } from 'node:fs/promises';
import { ChangeSignal, SerialRunner } from './watch';
import type { SessionFollowerPort } from '../port';
import type { Diagnostic, FillSnapshot, FollowerEvents, LiveContext, Result } from '../types';

export interface PollingTiming {
  debounceMs: number;
  pollMs: number;
}

export interface PollingSource {
  /** The session's path, named in diagnostics. */
  readonly path: string;
  /** The files whose change means the session may have changed; null: the session cannot be followed (`invalid` says why). */
  readonly files: readonly string[] | null;
  readonly invalid?: Diagnostic;
  /** One whole read of the session. */
  read(): Promise<Result<LiveContext>>;
}

/** What changes when an agent writes a file: its inode, size or time ('-' while it is missing). */
export async function filesStamp(paths: readonly string[]): Promise<string> {
  const stamps = await Promise.all(
    paths.map(async (path) => {
      try {
        const stats = await stat(path);
        return `${stats.ino}:${stats.size}:${stats.mtimeMs}`;
      } catch {
        return '-';
      }
    }),
  );
  return stamps.join('|');
}

export class PollingFollower extends EventEmitter implements SessionFollowerPort {
  private readonly signals: ChangeSignal[] = [];
  private readonly runner = new SerialRunner(() => this.read());
  private lastStamp: string | null = null;
  private previous: FillSnapshot | null = null;
  private seenRefs = new Set<string>();
  private seenCompactions = new Set<string>();
  private disposed = false;

  constructor(
    private readonly source: PollingSource,
    private readonly timing: PollingTiming,
  ) {
    super();
  }

  override on<K extends keyof FollowerEvents>(event: K, listener: (...args: FollowerEvents[K]) => void): this {
    return super.on(event, listener as (...args: unknown[]) => void);
  }

  async start(): Promise<void> {
    const files = this.source.files;
    if (files === null) {
      if (this.source.invalid) this.emit('diagnostic', this.source.invalid);
      return;
    }
    for (const path of files) this.signals.push(new ChangeSignal(path, this.timing, () => void this.runner.request()));
    await this.runner.request();
  }

  private async read(): Promise<void> {
    const files = this.source.files;
    if (this.disposed || files === null) return;
    const current = await filesStamp(files);
    if (current === this.lastStamp) return;
    // A file written whole and renamed over the old one (a log that appeared) has a new inode: fs.watch must follow it.
    for (const signal of this.signals) signal.rewatch();
    const live = await this.source.read();
    if (this.disposed) return;
    if (!live.ok) {
      // Caught mid-write: the stamp is kept unread, so the next poll reads it again.
      this.emit('diagnostic', { severity: 'warning', code: live.error.code, message: live.error.message, path: this.source.path });
      return;
    }
    this.lastStamp = current;
    const refs = live.value.entries.flatMap((entry) => entry.uuids);
    const initial = this.previous === null;
    const newRefs = initial ? [] : refs.filter((ref) => !this.seenRefs.has(ref));
    for (const event of live.value.compactions) {
      if (this.seenCompactions.has(event.uuid)) continue;
      this.seenCompactions.add(event.uuid);
      if (!initial) this.emit('compacted', event);
    }
    const fill = live.value.fill;
    const changed = initial || newRefs.length > 0 || fill.usedTokens !== this.previous?.usedTokens || fill.pendingTokens !== this.previous.pendingTokens;
    this.seenRefs = new Set(refs);
    if (changed)
      this.emit('contextChanged', { fill, previous: this.previous, reason: initial ? 'initial' : newRefs.length > 0 ? 'append' : 'reset', newUuids: newRefs });
    this.previous = fill;
  }

  dispose(): void {
    this.disposed = true;
    for (const signal of this.signals) signal.dispose();
    this.signals.length = 0;
    this.removeAllListeners();
  }
}
