// Live follow of one transcript: reads only what was appended, keeps a half-written last line until
// its newline arrives, starts over when the file was truncated or replaced, and reports deletion
// and read errors once each, picking up where it was when the file can be read again.
import { EventEmitter } from 'node:events';
import { stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { failFromError, ok, withFile } from '../result';
import type { Diagnostic, FillSnapshot, FollowerEvents, SessionError } from '../types';
import { CompactionCollector } from './compactions';
import { readFill, type FillOptions, type FillTracker } from './fill';
import { countNewlines, LineSplitter, readRange } from '../common/lines';
import { RecordParser } from './jsonl';
import { isSubagentTranscript } from './paths';
import { ProjectWatcher } from './projectWatcher';
import { uuidOf } from './records';
import { ChangeSignal, SerialRunner } from '../common/watch';

export interface FollowerOptions extends FillOptions {
  /** A change is read at once; further changes within this window (default 50 ms) are one more read. */
  debounceMs?: number;
  /** Fallback poll interval (default 1000 ms) for file systems where fs.watch misses changes. */
  pollMs?: number;
  /** Also watch the project folder and emit `sessionSwitched` when a new session appears. */
  watchProject?: boolean;
}

interface FollowState {
  tracker: FillTracker;
  /** Numbers lines from 1 at `startOffset`; `linesBefore` turns them into the file's own. */
  splitter: LineSplitter;
  startOffset: number;
  /** Lines before `startOffset`, counted only once a diagnostic needs a line number. */
  linesBefore: number | null;
  ino: number;
  fill: FillSnapshot;
}

export class SessionFollower extends EventEmitter<FollowerEvents> {
  private state: FollowState | null = null;
  private signal: ChangeSignal | null = null;
  private project: ProjectWatcher | null = null;
  private readonly runner = new SerialRunner(() => this.check());
  private readonly sidechain: boolean;
  private missing = false;
  /** The read error last reported, so a poll that keeps failing says it once. */
  private failing: SessionError['code'] | null = null;
  private disposed = false;

  constructor(readonly path: string, private readonly options: FollowerOptions = {}) {
    super();
    this.sidechain = options.sidechain ?? isSubagentTranscript(path);
  }

  /** The latest fill, once `start()` has read the file. */
  get fill(): FillSnapshot | null {
    return this.state?.fill ?? null;
  }

  /** Reads the file (tail first), emits the initial `contextChanged`, then watches. */
  async start(): Promise<void> {
    await this.runner.request();
    if (this.disposed) return;
    this.signal = new ChangeSignal(this.path, { debounceMs: this.options.debounceMs ?? 50, pollMs: this.options.pollMs ?? 1000 }, () => void this.runner.request());
    if (this.options.watchProject) {
      this.project = new ProjectWatcher(dirname(this.path), { current: this.path });
      this.project.on('sessionSwitched', (change) => this.emit('sessionSwitched', change));
      this.project.on('diagnostic', (diagnostic) => this.emit('diagnostic', diagnostic));
      await this.project.start();
    }
  }

  /** Checks for changes now (tests and hosts that know a write just happened). */
  refresh(): Promise<void> {
    return this.runner.request();
  }

  dispose(): void {
    this.disposed = true;
    this.signal?.dispose();
    this.project?.dispose();
    this.signal = null;
    this.project = null;
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
    const read = await readFill(this.path, this.options);
    if (!read.ok) return this.readFailed(read.error);
    const previous = this.state?.fill ?? null;
    if (previous !== null) this.report('info', this.missing ? 'file-recreated' : 'file-replaced', 'Transcript was truncated, replaced or recreated; reading it again');
    this.missing = false;
    this.readSucceeded();
    for (const diagnostic of read.value.diagnostics) this.emit('diagnostic', diagnostic);
    const { tracker, resumeOffset, fill } = read.value;
    this.state = { tracker, splitter: new LineSplitter(resumeOffset, 1), startOffset: resumeOffset, linesBefore: null, ino, fill };
    this.emit('contextChanged', { fill, previous, reason: previous === null ? 'initial' : 'reset', newUuids: [] });
  }

  private async readAppended(state: FollowState, size: number): Promise<void> {
    const read = await withFile(this.path, async (handle) => ok(await readRange(handle, readEnd(state), size)));
    // Deleted since the stat, or made unreadable: nothing was consumed, so a later check retries.
    if (!read.ok) return this.readFailed(read.error);
    const chunk = read.value;
    this.readSucceeded();
    const parser = new RecordParser(this.path);
    const compactions = new CompactionCollector(this.sidechain);
    const newUuids: string[] = [];
    let changed = false;
    state.splitter.push(chunk, (bytes, line, offset, end) => {
      const located = parser.parse(bytes, line, offset, end);
      if (located === null) return;
      changed = state.tracker.observe(located) || changed;
      compactions.observe(located);
      const uuid = uuidOf(located.record);
      if (uuid !== null) newUuids.push(uuid);
    });
    const diagnostics = parser.diagnostics();
    const events = compactions.all();
    // Only a diagnostic pays for counting the lines before; a compaction gets a line when it is known.
    const linesBefore = diagnostics.some((diagnostic) => diagnostic.line !== undefined) ? await this.linesBefore(state) : state.linesBefore;
    for (const located of [...diagnostics, ...events]) toFileLine(located, linesBefore);
    for (const diagnostic of diagnostics) this.emit('diagnostic', diagnostic);
    for (const event of events) this.emit('compacted', event);
    if (!changed) return;
    const previous = state.fill;
    state.fill = state.tracker.snapshot(this.options);
    this.emit('contextChanged', { fill: state.fill, previous, reason: 'append', newUuids });
  }

  /** null when the file cannot be read right now (the next diagnostic tries again). */
  private async linesBefore(state: FollowState): Promise<number | null> {
    if (state.linesBefore === null) {
      const counted = await withFile(this.path, async (handle) => ok(await countNewlines(handle, 0, state.startOffset)));
      state.linesBefore = counted.ok ? counted.value : null;
    }
    return state.linesBefore;
  }

  private readFailed(error: SessionError): void {
    if (error.code === 'not-found') {
      if (this.missing) return;
      this.missing = true;
      this.signal?.unwatch();
      return this.report('warning', 'file-deleted', `Transcript was deleted; waiting for it to come back: ${this.path}`);
    }
    if (this.failing === error.code) return;
    this.failing = error.code;
    this.report('error', error.code, `${error.message}; following resumes once it can be read`);
  }

  private readSucceeded(): void {
    if (this.failing === null) return;
    this.failing = null;
    this.report('info', 'file-readable', 'Transcript can be read again; following resumes');
  }

  private report(severity: Diagnostic['severity'], code: string, message: string): void {
    this.emit('diagnostic', { severity, code, message, path: this.path });
  }
}

/** A thrown fs error as the adapter's error: the codes and messages `readFill` returns. */
function sessionError(error: unknown, path: string): SessionError {
  const result = failFromError<never>(error, path);
  return result.ok ? result.value : result.error;
}

/** Where the next read starts: the unfinished line is read again with what follows it. */
function readEnd(state: FollowState): number {
  return state.splitter.pendingOffset + state.splitter.pendingBytes;
}

/** Turns a line counted from where following started into the file's line, or drops it when unknown. */
function toFileLine(item: { line?: number }, linesBefore: number | null): void {
  if (item.line === undefined) return;
  if (linesBefore === null) delete item.line;
  else item.line += linesBefore;
}
