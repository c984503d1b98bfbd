// Live follow of one Claude Code transcript (see common/appendFollower.ts for the reading, watching
// and reporting): records parsed with their line numbers in the file, compactions announced, and
// with `watchProject` the project folder watched for a newer session.
import { dirname } from 'node:path';
import { AppendFollower, type AppendFollowerOptions, type FollowState, type FullRead } from '../common/appendFollower';
import { countNewlines, LineSplitter } from '../common/lines';
import { ok, withFile } from '../result';
import type { FillSnapshot, Result } from '../types';
import { CompactionCollector } from './compactions';
import { readFill, type FillOptions, type FillTracker } from './fill';
import { RecordParser } from './jsonl';
import { isSubagentTranscript } from './paths';
import { ProjectWatcher } from './projectWatcher';
import { uuidOf } from './records';

export interface FollowerOptions extends FillOptions, AppendFollowerOptions {
  /** Also watch the project folder and emit `sessionSwitched` when a new session appears. */
  watchProject?: boolean;
}

interface TranscriptState extends FollowState {
  tracker: FillTracker;
  /** The splitter numbers lines from 1 at `startOffset`; `linesBefore` turns them into the file's own. */
  startOffset: number;
  /** Lines before `startOffset`, counted only once a diagnostic needs a line number. */
  linesBefore: number | null;
}

export class SessionFollower extends AppendFollower<TranscriptState> {
  private project: ProjectWatcher | null = null;
  private readonly sidechain: boolean;

  constructor(
    path: string,
    private readonly options: FollowerOptions = {},
  ) {
    super(path, options, 'Transcript');
    this.sidechain = options.sidechain ?? isSubagentTranscript(path);
  }

  override async start(): Promise<void> {
    await super.start();
    if (this.disposed || !this.options.watchProject) return;
    this.project = new ProjectWatcher(dirname(this.path), { current: this.path });
    this.project.on('sessionSwitched', (change) => this.emit('sessionSwitched', change));
    this.project.on('diagnostic', (diagnostic) => this.emit('diagnostic', diagnostic));
    await this.project.start();
  }

  override dispose(): void {
    this.project?.dispose();
    this.project = null;
    super.dispose();
  }

  protected async readAll(ino: number): Promise<Result<FullRead<TranscriptState>>> {
    const read = await readFill(this.path, this.options);
    if (!read.ok) return read;
    const { tracker, resumeOffset, fill, diagnostics } = read.value;
    return ok({ state: { tracker, splitter: new LineSplitter(resumeOffset, 1), startOffset: resumeOffset, linesBefore: null, ino, fill }, diagnostics });
  }

  protected async consume(state: TranscriptState, chunk: Buffer): Promise<{ changed: boolean; newRefs: string[] }> {
    const parser = new RecordParser(this.path);
    const compactions = new CompactionCollector(this.sidechain);
    const newRefs: string[] = [];
    let changed = false;
    state.splitter.push(chunk, (bytes, line, offset, end) => {
      const located = parser.parse(bytes, line, offset, end);
      if (located === null) return;
      changed = state.tracker.observe(located) || changed;
      compactions.observe(located);
      const uuid = uuidOf(located.record);
      if (uuid !== null) newRefs.push(uuid);
    });
    const diagnostics = parser.diagnostics();
    const events = compactions.all();
    // Only a diagnostic pays for counting the lines before; a compaction gets a line when it is known.
    const linesBefore = diagnostics.some((diagnostic) => diagnostic.line !== undefined) ? await this.linesBefore(state) : state.linesBefore;
    for (const located of [...diagnostics, ...events]) toFileLine(located, linesBefore);
    for (const diagnostic of diagnostics) this.emit('diagnostic', diagnostic);
    for (const event of events) this.emit('compacted', event);
    return { changed, newRefs };
  }

  protected snapshot(state: TranscriptState): FillSnapshot {
    return state.tracker.snapshot(this.options);
  }

  /** null when the file cannot be read right now (the next diagnostic tries again). */
  private async linesBefore(state: TranscriptState): Promise<number | null> {
    if (state.linesBefore === null) {
      const counted = await withFile(this.path, async (handle) => ok(await countNewlines(handle, 0, state.startOffset)));
      state.linesBefore = counted.ok ? counted.value : null;
    }
    return state.linesBefore;
  }
}

/** Turns a line counted from where following started into the file's line, or drops it when unknown. */
function toFileLine(item: { line?: number }, linesBefore: number | null): void {
  if (item.line === undefined) return;
  if (linesBefore === null) delete item.line;
  else item.line += linesBefore;
}
