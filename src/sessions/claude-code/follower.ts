// Live follow of one transcript: reads only what was appended, keeps a half-written last line until
// its newline arrives, starts over when the file was truncated or replaced, and reports deletion.
import { EventEmitter } from 'node:events';
import { open, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { CompactionEvent, Diagnostic, FillSnapshot } from '../types';
import { CompactionCollector } from './compactions';
import { readFill, type FillOptions, type FillTracker } from './fill';
import { LineSplitter, RecordParser } from './jsonl';
import { subagentParent } from './liveContext';
import { ProjectWatcher, type SessionSwitch } from './projectWatcher';
import { uuidOf } from './records';
import { ChangeSignal, SerialRunner } from './watch';

export interface FollowerOptions extends FillOptions {
  /** Quiet time after a change before reading (default 50 ms): a burst of appends is one read. */
  debounceMs?: number;
  /** Fallback poll interval (default 1000 ms) for file systems where fs.watch misses changes. */
  pollMs?: number;
  /** Also watch the project folder and emit `sessionSwitched` when a new session appears. */
  watchProject?: boolean;
}

export interface ContextChange {
  fill: FillSnapshot;
  previous: FillSnapshot | null;
  /** `initial`: first read. `append`: new lines. `reset`: the file was truncated or replaced. */
  reason: 'initial' | 'append' | 'reset';
  /** uuids of chain records that arrived with this change (empty for initial and reset). */
  newUuids: string[];
}

export interface FollowerEvents {
  contextChanged: [ContextChange];
  compacted: [CompactionEvent];
  sessionSwitched: [SessionSwitch];
  /** Problems while following (deleted, unreadable, bad lines). Named so an unheard one never throws. */
  diagnostic: [Diagnostic];
}

interface FollowState {
  tracker: FillTracker;
  splitter: LineSplitter;
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
  private disposed = false;

  constructor(readonly path: string, private readonly options: FollowerOptions = {}) {
    super();
    this.sidechain = options.sidechain ?? subagentParent(path) !== undefined;
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
      return this.reportMissing(error);
    }
    const state = this.state;
    if (state === null || this.missing || stats.ino !== state.ino || stats.size < state.splitter.pendingOffset + state.splitter.pendingBytes) {
      const reason = state === null ? 'initial' : 'reset';
      if (reason === 'reset') this.report('info', this.missing ? 'file-recreated' : 'file-replaced', 'Transcript was truncated, replaced or recreated; reading it again');
      this.missing = false;
      this.signal?.rewatch();
      return this.restart(reason, stats.ino);
    }
    if (stats.size > state.splitter.pendingOffset + state.splitter.pendingBytes) await this.readAppended(state, stats.size);
  }

  private async restart(reason: 'initial' | 'reset', ino: number): Promise<void> {
    const read = await readFill(this.path, this.options);
    if (!read.ok) return this.report('error', read.error.code, read.error.message);
    for (const diagnostic of read.value.diagnostics) this.emit('diagnostic', diagnostic);
    const previous = this.state?.fill ?? null;
    this.state = { tracker: read.value.tracker, splitter: new LineSplitter(read.value.resumeOffset, 0), ino, fill: read.value.fill };
    this.emit('contextChanged', { fill: read.value.fill, previous, reason, newUuids: [] });
  }

  private async readAppended(state: FollowState, size: number): Promise<void> {
    const from = state.splitter.pendingOffset + state.splitter.pendingBytes;
    const handle = await open(this.path, 'r');
    const chunk = Buffer.allocUnsafe(size - from);
    try {
      await handle.read(chunk, 0, chunk.length, from);
    } finally {
      await handle.close();
    }
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
    for (const diagnostic of parser.diagnostics()) this.emit('diagnostic', diagnostic);
    for (const event of compactions.all()) this.emit('compacted', event);
    if (!changed) return;
    const previous = state.fill;
    state.fill = state.tracker.snapshot(this.options);
    this.emit('contextChanged', { fill: state.fill, previous, reason: 'append', newUuids });
  }

  private reportMissing(error: unknown): void {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') {
      if (this.missing) return;
      this.missing = true;
      this.signal?.unwatch();
      return this.report('warning', 'file-deleted', 'Transcript was deleted; waiting for it to come back');
    }
    this.report('error', code === 'EACCES' || code === 'EPERM' ? 'permission-denied' : 'io', `Cannot read transcript: ${error instanceof Error ? error.message : String(error)}`);
  }

  private report(severity: Diagnostic['severity'], code: string, message: string): void {
    this.emit('diagnostic', { severity, code, message, path: this.path });
  }
}
