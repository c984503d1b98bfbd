// The session handle every adapter gets without writing one: built on its port (follow,
// readLiveContext, usage, readSessionCalls). What it reads is kept until the file changes (the
// follower says so, or a one-shot caller never follows), so the live context, the engine's context,
// the usage points and the calls are each read once per change, whoever asks; the file is held open
// meanwhile (heldFile.ts), so all of them read its appended bytes from memory.
import { EventEmitter } from 'node:events';
import type { AgentAdapter, LiveRead, ReadOptions, SessionFollowerPort, SessionHandle, UsagePoint, UsageReader } from '../port';
import type { FillSnapshot, FollowerEvents, Result, SessionCalls, SessionInfo } from '../types';
import { contextOf } from './contextOf';
import { holdFile } from './heldFile';

/**
 * One read per change: the promise of the read for the current change, shared by whoever asks
 * meanwhile. A read that failed is not what the change holds (the agent's files caught mid-write):
 * it is forgotten once settled, so the next ask reads again instead of getting the failure until
 * the agent writes once more.
 */
class PerChange<T extends Result<unknown>> {
  private value: { change: number; read: Promise<T> } | null = null;
  constructor(private readonly read: () => Promise<T>) {}
  get(change: number): Promise<T> {
    if (this.value?.change !== change) {
      const entry = { change, read: this.read() };
      this.value = entry;
      const forget = (): void => {
        if (this.value === entry) this.value = null;
      };
      entry.read.then((result) => (result.ok ? undefined : forget()), forget);
    }
    return this.value.read;
  }
}

export class DefaultSessionHandle implements SessionHandle {
  private readonly events = new EventEmitter<FollowerEvents>();
  private follower: SessionFollowerPort | null = null;
  private latestFill: FillSnapshot | null = null;
  /** Bumped by every change the follower reports (appended, truncated, replaced): what was read is stale. */
  private change = 0;
  private readonly usage: UsageReader;
  /** Usage updates one after the other: a reader continues from where the last update stopped. */
  private usageUpdates: Promise<void> = Promise.resolve();
  private readonly hold: { release(): Promise<void> };
  private disposed = false;
  private readonly lives = new PerChange(() => this.readLive());
  private readonly callReads = new PerChange(() => this.adapter.readSessionCalls(this.session));

  constructor(
    readonly adapter: AgentAdapter,
    readonly session: SessionInfo,
    private readonly options: ReadOptions = {},
  ) {
    this.hold = holdFile(session.path);
    this.usage = adapter.usage(session.path);
  }

  get fill(): FillSnapshot | null {
    return this.latestFill;
  }

  on<K extends keyof FollowerEvents>(event: K, listener: (...args: FollowerEvents[K]) => void): this {
    this.events.on(event, listener as never);
    return this;
  }

  async follow(): Promise<void> {
    if (this.follower !== null || this.disposed) return;
    const follower = await this.adapter.follow(this.session, this.options);
    if (this.disposed) return follower.dispose();
    this.follower = follower;
    follower.on('contextChanged', (change) => {
      this.change++;
      this.latestFill = change.fill;
      this.events.emit('contextChanged', change);
    });
    follower.on('compacted', (event) => this.events.emit('compacted', event));
    follower.on('diagnostic', (diagnostic) => this.events.emit('diagnostic', diagnostic));
    follower.on('sessionSwitched', (change) => this.events.emit('sessionSwitched', change));
    await follower.start();
  }

  liveContext(): Promise<Result<LiveRead>> {
    return this.lives.get(this.change);
  }

  usagePoint(ref: string): UsagePoint | undefined {
    return this.usage.get(ref);
  }

  calls(): Promise<Result<SessionCalls>> {
    return this.callReads.get(this.change);
  }

  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    this.follower?.dispose();
    this.follower = null;
    this.events.removeAllListeners();
    await this.hold.release();
  }

  private async readLive(): Promise<Result<LiveRead>> {
    const read = await this.adapter.readLiveContext(this.session, this.options);
    if (!read.ok) return read;
    const live = read.value;
    // Each step runs on the caller's thread (the extension host's): other work runs between them.
    await nextTurn();
    const context = contextOf(live, this.adapter.tools);
    // The timeline's per-call usage: only from where the live context starts.
    const update = this.usageUpdates.then(() => this.usage.update(live.startOffset));
    this.usageUpdates = update.catch(() => undefined);
    await update;
    return { ok: true, value: { live, context } };
  }
}

function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
