// Live follow of one Codex rollout (see common/appendFollower.ts for the reading, watching and
// reporting): records parsed by Codex's rules, its compactions announced. Same events as the
// Claude Code follower, so the host listens to either.
import { AppendFollower, type AppendFollowerOptions, type FollowState, type FullRead } from '../common/appendFollower';
import { LineSplitter } from '../common/lines';
import { ok } from '../result';
import type { FillSnapshot, Result } from '../types';
import { CodexCompactionCollector } from './compactions';
import { readCodexFill, type CodexFillOptions, type CodexFillTracker } from './fill';
import { RolloutParser } from './reader';
import { itemRef, responseItemOf } from './records';

export interface CodexFollowerOptions extends CodexFillOptions, AppendFollowerOptions {}

interface RolloutState extends FollowState {
  tracker: CodexFillTracker;
}

export class CodexSessionFollower extends AppendFollower<RolloutState> {
  /** Compactions are collected across reads: a summary and its post-compaction count may come in a later append. */
  private readonly compactions = new CodexCompactionCollector();

  constructor(
    path: string,
    private readonly options: CodexFollowerOptions = {},
  ) {
    super(path, options, 'Rollout');
  }

  protected async readAll(ino: number): Promise<Result<FullRead<RolloutState>>> {
    const read = await readCodexFill(this.path, this.options);
    if (!read.ok) return read;
    const { tracker, resumeOffset, fill, diagnostics } = read.value;
    return ok({ state: { tracker, splitter: new LineSplitter(resumeOffset, 0), ino, fill }, diagnostics });
  }

  protected consume(state: RolloutState, chunk: Buffer): Promise<{ changed: boolean; newRefs: string[] }> {
    const parser = new RolloutParser(this.path);
    const newRefs: string[] = [];
    let changed = false;
    state.splitter.push(chunk, (bytes, line, offset, end) => {
      const located = parser.parse(bytes, line, offset, end);
      if (located === null) return;
      changed = state.tracker.observe(located) || changed;
      const event = this.compactions.observe(located);
      if (event !== null) this.emit('compacted', event);
      if (responseItemOf(located.record) !== null) newRefs.push(itemRef(offset));
    });
    // Lines are numbered from where following started, not in the file: diagnostics carry offsets.
    for (const diagnostic of parser.diagnostics()) this.emit('diagnostic', diagnostic);
    return Promise.resolve({ changed, newRefs });
  }

  protected snapshot(state: RolloutState): FillSnapshot {
    return state.tracker.snapshot(this.options);
  }
}
