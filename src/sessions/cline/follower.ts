// Live follow of one Cline session. Cline writes its files whole (a new file renamed over the old,
// or rewritten in place) on every message, so there is nothing to append-read: the files are
// watched (common/watch.ts: fs.watch plus a poll) and, when one's inode, size or time moved, the
// session is read again whole, one read at a time.
import { EventEmitter } from 'node:events';
import { stat } from 'node:fs/promises';
import { ChangeSignal, SerialRunner } from '../common/watch';
import type { SessionFollowerPort } from '../port';
import type { FillSnapshot, FollowerEvents, SessionInfo } from '../types';
import { readClineLiveContext, type ClineReadOptions } from './liveContext';
import { placeOf } from './paths';

export interface ClineFollowerOptions extends ClineReadOptions {
  debounceMs?: number;
  pollMs?: number;
}

async function stampOf(paths: readonly string[]): Promise<string> {
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

export class ClineSessionFollower extends EventEmitter implements SessionFollowerPort {
  private readonly signals: ChangeSignal[] = [];
  private readonly runner = new SerialRunner(() => this.read());
  private readonly files: string[];
  private lastStamp: string | null = null;
  private previous: FillSnapshot | null = null;
  private seenRefs = new Set<string>();
  private seenCompactions = new Set<string>();
  private disposed = false;

  constructor(
    private readonly session: SessionInfo,
    private readonly options: ClineFollowerOptions = {},
  ) {
    super();
    const place = placeOf(session.path);
    this.files = place === null ? [session.path] : place.layout === 'sdk' ? [place.messages] : [place.history, place.ui];
  }

  override on<K extends keyof FollowerEvents>(event: K, listener: (...args: FollowerEvents[K]) => void): this {
    return super.on(event, listener as (...args: unknown[]) => void);
  }

  async start(): Promise<void> {
    const timing = { debounceMs: this.options.debounceMs ?? 100, pollMs: this.options.pollMs ?? 1000 };
    for (const path of this.files) this.signals.push(new ChangeSignal(path, timing, () => void this.runner.request()));
    await this.runner.request();
  }

  private async read(): Promise<void> {
    if (this.disposed) return;
    const current = await stampOf(this.files);
    if (current === this.lastStamp) return;
    // A file written whole and renamed over the old one has a new inode: fs.watch must follow it.
    for (const signal of this.signals) signal.rewatch();
    const live = await readClineLiveContext(this.session, this.session.path, this.options);
    if (this.disposed) return;
    if (!live.ok) {
      // Caught mid-write (torn JSON): the next change reads it again.
      this.emit('diagnostic', { severity: 'warning', code: live.error.code, message: live.error.message, path: this.session.path });
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
