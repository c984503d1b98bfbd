// Live follow of one OpenCode-family session. The session lives in a database, not a file of its own:
// the database and its log (`-wal`, where OpenCode's newest rows are) are watched (common/watch.ts),
// and when either's size or time changes the session is read again (its own pages only), one read
// at a time. Read-only like every read here: no lock is taken, nothing is written.
import { EventEmitter } from 'node:events';
import { ChangeSignal, SerialRunner } from '../watch';
import type { SessionFollowerPort } from '../../port';
import type { FillSnapshot, FollowerEvents, SessionInfo } from '../../types';
import { readOpencodeLiveContext, type OpencodeReadOptions } from './liveContext';
import type { OpencodeFlavour } from './flavour';
import { parseSessionPath } from './paths';
import { databaseStamp } from './stamp';
import { keepReads } from '../opencodeStore';

export interface OpencodeFollowerOptions extends OpencodeReadOptions {
  debounceMs?: number;
  pollMs?: number;
}

export class OpencodeSessionFollower extends EventEmitter implements SessionFollowerPort {
  private readonly signals: ChangeSignal[] = [];
  private readonly runner = new SerialRunner(() => this.read());
  private lastStamp: string | null = null;
  private previous: FillSnapshot | null = null;
  private seenRefs = new Set<string>();
  private seenCompactions = new Set<string>();
  private disposed = false;
  /** While following, the reads of the database keep what they read: a change reads what it changed. */
  private kept: { release(): void } | null = null;

  constructor(
    private readonly flavour: OpencodeFlavour,
    private readonly session: SessionInfo,
    private readonly options: OpencodeFollowerOptions = {},
  ) {
    super();
  }

  override on<K extends keyof FollowerEvents>(event: K, listener: (...args: FollowerEvents[K]) => void): this {
    return super.on(event, listener as (...args: unknown[]) => void);
  }

  async start(): Promise<void> {
    const parsed = parseSessionPath(this.session.path);
    if (parsed === null) {
      this.emit('diagnostic', {
        severity: 'error',
        code: 'invalid-path',
        message: `Not a session of ${this.flavour.name}: ${this.session.path}`,
        path: this.session.path,
      });
      return;
    }
    this.kept ??= keepReads(parsed.db);
    const timing = { debounceMs: this.options.debounceMs ?? 150, pollMs: this.options.pollMs ?? 2000 };
    for (const path of [parsed.db, `${parsed.db}-wal`]) this.signals.push(new ChangeSignal(path, timing, () => void this.runner.request()));
    await this.runner.request();
  }

  private async read(): Promise<void> {
    if (this.disposed) return;
    const parsed = parseSessionPath(this.session.path);
    if (parsed === null) return;
    const current = await databaseStamp(parsed.db);
    if (current === this.lastStamp) return;
    // A log that appeared or was replaced has a new inode: fs.watch must follow it.
    for (const signal of this.signals) signal.rewatch();
    const live = await readOpencodeLiveContext(this.flavour, this.session, this.options);
    if (this.disposed) return;
    if (!live.ok) {
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
    this.kept?.release();
    this.kept = null;
    for (const signal of this.signals) signal.dispose();
    this.signals.length = 0;
    this.removeAllListeners();
  }
}
