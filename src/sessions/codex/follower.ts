// Live follow of one rollout: reads only what was appended, keeps a half-written last line until
// its newline arrives, starts over when the file was truncated or replaced, and reports deletion
// and read errors once each. Same events as the Claude Code follower (the host listens to either);
// the watching and serialising pieces are shared, the record rules are Codex's.
import { EventEmitter } from 'node:events';
import { stat } from 'node:fs/promises';
import { failFromError, ok, withFile } from '../result';
import type { Diagnostic, FillSnapshot, FollowerEvents, SessionError } from '../types';
import { LineSplitter, readRange } from '../common/lines';
import { ChangeSignal, SerialRunner } from '../common/watch';
import { CodexCompactionCollector } from './compactions';
import { readCodexFill, type CodexFillOptions, type CodexFillTracker } from './fill';
import { RolloutParser } from './reader';
import { itemRef, responseItemOf } from './records';

export interface CodexFollowerOptions extends CodexFillOptions {
  /** A change is read at once; further changes within this window (default 50 ms) are one more read. */
  debounceMs?: number;
  /** Fallback poll interval (default 1000 ms) for file systems where fs.watch misses changes. */
  pollMs?: number;
}

interface FollowState {
  tracker: CodexFillTracker;
  splitter: LineSplitter;
  ino: number;
  fill: FillSnapshot;
}

export class CodexSessionFollower extends EventEmitter<FollowerEvents> {
  private state: FollowState | null = null;
  private signal: ChangeSignal | null = null;
  private readonly runner = new SerialRunner(() => this.check());
  /** Compactions are collected across reads: a summary and its post-compaction count may come in a later append. */
  private readonly compactions = new CodexCompactionCollector();
  private missing = false;
  private failing: SessionError['code'] | null = null;
  private disposed = false;

  constructor(readonly path: string, private readonly options: CodexFollowerOptions = {}) {
    super();
  }

  get fill(): FillSnapshot | null {
    return this.state?.fill ?? null;
  }

  /** Reads the file (tail first), emits the initial `contextChanged`, then watches. */
  async start(): Promise<void> {
    await this.runner.request();
    if (this.disposed) return;
    this.signal = new ChangeSignal(this.path, { debounceMs: this.options.debounceMs ?? 50, pollMs: this.options.pollMs ?? 1000 }, () => void this.runner.request());
  }

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
      const failed = failFromError<never>(error, this.path);
      if (!failed.ok) this.readFailed(failed.error);
      return;
    }
    const state = this.state;
    if (state === null || this.missing || stats.ino !== state.ino || stats.size < readEnd(state)) {
      this.signal?.rewatch();
      return this.restart(stats.ino);
    }
    if (stats.size > readEnd(state)) await this.readAppended(state, stats.size);
  }

  private async restart(ino: number): Promise<void> {
    const read = await readCodexFill(this.path, this.options);
    if (!read.ok) return this.readFailed(read.error);
    const previous = this.state?.fill ?? null;
    if (previous !== null) this.report('info', this.missing ? 'file-recreated' : 'file-replaced', 'Rollout was truncated, replaced or recreated; reading it again');
    this.missing = false;
    this.readSucceeded();
    for (const diagnostic of read.value.diagnostics) this.emit('diagnostic', diagnostic);
    const { tracker, resumeOffset, fill } = read.value;
    this.state = { tracker, splitter: new LineSplitter(resumeOffset, 0), ino, fill };
    this.emit('contextChanged', { fill, previous, reason: previous === null ? 'initial' : 'reset', newUuids: [] });
  }

  private async readAppended(state: FollowState, size: number): Promise<void> {
    const read = await withFile(this.path, async (handle) => ok(await readRange(handle, readEnd(state), size)));
    if (!read.ok) return this.readFailed(read.error);
    this.readSucceeded();
    const parser = new RolloutParser(this.path);
    const newRefs: string[] = [];
    let changed = false;
    state.splitter.push(read.value, (bytes, line, offset, end) => {
      const located = parser.parse(bytes, line, offset, end);
      if (located === null) return;
      changed = state.tracker.observe(located) || changed;
      const event = this.compactions.observe(located);
      if (event !== null) this.emit('compacted', event);
      if (responseItemOf(located.record) !== null) newRefs.push(itemRef(offset));
    });
    // Lines are numbered from where following started, not in the file: diagnostics carry offsets.
    for (const diagnostic of parser.diagnostics()) this.emit('diagnostic', diagnostic);
    if (!changed) return;
    const previous = state.fill;
    state.fill = state.tracker.snapshot(this.options);
    this.emit('contextChanged', { fill: state.fill, previous, reason: 'append', newUuids: newRefs });
  }

  private readFailed(error: SessionError): void {
    if (error.code === 'not-found') {
      if (this.missing) return;
      this.missing = true;
      this.signal?.unwatch();
      return this.report('warning', 'file-deleted', `Rollout was deleted; waiting for it to come back: ${this.path}`);
    }
    if (this.failing === error.code) return;
    this.failing = error.code;
    this.report('error', error.code, `${error.message}; following resumes once it can be read`);
  }

  private readSucceeded(): void {
    if (this.failing === null) return;
    this.failing = null;
    this.report('info', 'file-readable', 'Rollout can be read again; following resumes');
  }

  private report(severity: Diagnostic['severity'], code: string, message: string): void {
    this.emit('diagnostic', { severity, code, message, path: this.path });
  }
}

function readEnd(state: FollowState): number {
  return state.splitter.pendingOffset + state.splitter.pendingBytes;
}
