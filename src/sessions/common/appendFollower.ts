// Live follow of one append-only session file, whatever the agent: reads only what was appended,
// keeps a half-written last line until its newline arrives, starts over when the file was
// truncated or replaced, and reports deletion and read errors once each, picking up where it was
// when the file can be read again. An agent's follower says how to read the whole file (tail
// first) and what the appended lines mean; the watching, the checks and the reporting are here.
import { EventEmitter } from 'node:events';
import { stat } from 'node:fs/promises';
import { failFromError, ok, withFile } from '../result';
import type { Diagnostic, FillSnapshot, FollowerEvents, Result, SessionError } from '../types';
import type { LineSplitter } from './lines';
import { readRange } from './lines';
import { ChangeSignal, SerialRunner } from './watch';

export interface AppendFollowerOptions {
  /** A change is read at once; further changes within this window (default 50 ms) are one more read. */
  debounceMs?: number;
  /** Fallback poll interval (default 1000 ms) for file systems where fs.watch misses changes. */
  pollMs?: number;
}

/** What a follower keeps between reads: where the next read starts (the splitter) and the fill. */
export interface FollowState {
  splitter: LineSplitter;
  ino: number;
  fill: FillSnapshot;
}

/** A whole read of the file (tail first): the state to go on from, and what was wrong in it. */
export interface FullRead<S extends FollowState> {
  state: S;
  diagnostics: readonly Diagnostic[];
}

export abstract class AppendFollower<S extends FollowState> extends EventEmitter<FollowerEvents> {
  protected state: S | null = null;
  private signal: ChangeSignal | null = null;
  private readonly runner = new SerialRunner(() => this.check());
  private missing = false;
  /** The read error last reported, so a poll that keeps failing says it once. */
  private failing: SessionError['code'] | null = null;
  protected disposed = false;

  /** `noun`: what the messages call the file ("Transcript", "Rollout"). */
  constructor(
    readonly path: string,
    private readonly timing: AppendFollowerOptions,
    private readonly noun: string,
  ) {
    super();
  }

  /** Reads the whole file (tail first) into a fresh state for inode `ino`. */
  protected abstract readAll(ino: number): Promise<Result<FullRead<S>>>;

  /**
   * Makes sense of appended bytes, emitting the diagnostics and compactions they hold; says whether
   * the fill changed and the refs (record uuids, item refs) of what arrived.
   */
  protected abstract consume(state: S, chunk: Buffer): Promise<{ changed: boolean; newRefs: string[] }>;

  /** The fill after `consume` changed it. */
  protected abstract snapshot(state: S): FillSnapshot;

  /** The latest fill, once `start()` has read the file. */
  get fill(): FillSnapshot | null {
    return this.state?.fill ?? null;
  }

  /** Reads the file (tail first), emits the initial `contextChanged`, then watches. */
  async start(): Promise<void> {
    await this.runner.request();
    if (this.disposed) return;
    this.signal = new ChangeSignal(
      this.path,
      { debounceMs: this.timing.debounceMs ?? 50, pollMs: this.timing.pollMs ?? 1000 },
      () => void this.runner.request(),
    );
  }

  /** Checks for changes now (tests and hosts that know a write just happened). */
  refresh(): Promise<void> {
    return this.runner.request();
  }

  dispose(): void {
    this.disposed = true;
    this.signal?.dispose();
    this.signal = null;
    this.removeAllListeners();
  }

  private async check(): Promise<void> {
    if (this.disposed) return;
    let stats;
    try {
      stats = await stat(this.path);
    } catch (error) {
      return this.readFailed(sessionError(error, this.path));
    }
    const state = this.state;
    if (state === null || this.missing || stats.ino !== state.ino || stats.size < readEnd(state)) {
      this.signal?.rewatch();
      return this.restart(stats.ino);
    }
    if (stats.size > readEnd(state)) await this.readAppended(state, stats.size);
  }

  private async restart(ino: number): Promise<void> {
    const read = await this.readAll(ino);
    if (!read.ok) return this.readFailed(read.error);
    const previous = this.state?.fill ?? null;
    if (previous !== null)
      this.report('info', this.missing ? 'file-recreated' : 'file-replaced', `${this.noun} was truncated, replaced or recreated; reading it again`);
    this.missing = false;
    this.readSucceeded();
    for (const diagnostic of read.value.diagnostics) this.emit('diagnostic', diagnostic);
    this.state = read.value.state;
    this.emit('contextChanged', { fill: this.state.fill, previous, reason: previous === null ? 'initial' : 'reset', newUuids: [] });
  }

  private async readAppended(state: S, size: number): Promise<void> {
    const read = await withFile(this.path, async (handle) => ok(await readRange(handle, readEnd(state), size)));
    // Deleted since the stat, or made unreadable: nothing was consumed, so a later check retries.
    if (!read.ok) return this.readFailed(read.error);
    this.readSucceeded();
    const { changed, newRefs } = await this.consume(state, read.value);
    if (!changed) return;
    const previous = state.fill;
    state.fill = this.snapshot(state);
    this.emit('contextChanged', { fill: state.fill, previous, reason: 'append', newUuids: newRefs });
  }

  private readFailed(error: SessionError): void {
    if (error.code === 'not-found') {
      if (this.missing) return;
      this.missing = true;
      this.signal?.unwatch();
      return this.report('warning', 'file-deleted', `${this.noun} was deleted; waiting for it to come back: ${this.path}`);
    }
    if (this.failing === error.code) return;
    this.failing = error.code;
    this.report('error', error.code, `${error.message}; following resumes once it can be read`);
  }

  private readSucceeded(): void {
    if (this.failing === null) return;
    this.failing = null;
    this.report('info', 'file-readable', `${this.noun} can be read again; following resumes`);
  }

  private report(severity: Diagnostic['severity'], code: string, message: string): void {
    this.emit('diagnostic', { severity, code, message, path: this.path });
  }
}

/** A thrown fs error as the adapters' error: the codes and messages their reads return. */
function sessionError(error: unknown, path: string): SessionError {
  const result = failFromError<never>(error, path);
  return result.ok ? result.value : result.error;
}

/** Where the next read starts: the unfinished line is read again with what follows it. */
function readEnd(state: FollowState): number {
  return state.splitter.pendingOffset + state.splitter.pendingBytes;
}
