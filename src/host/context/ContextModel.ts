// Live model of the followed session: once its fill is shown (the tail read), reads the live
// context at once, then again on every change of the fill (debounced, never two reads at once),
// and re-plans what Compact… would do (planKeeper.ts). Items are sized from the agent's recorded
// usage with a one-pass estimate, so no tokenizer tables are loaded and nothing needs a worker thread.
// Settings changes re-plan without re-reading. What the session cost is read after the context is
// shown, and again when the prices change (costKeeper.ts). Every read goes through the session's
// handle, which reads each change of the file once.
import * as vscode from 'vscode';
import type { ItemFate } from '../../engine';
import type { BreakEvenView, ChoiceAction, Choices, CostView, PlanView, TimelinePoint } from '../../protocol/messages';
import type { SessionHandle } from '../../sessions/port';
import type { CompactionEvent } from '../../sessions/types';
import { Disposables } from '../disposables';
import type { SessionService } from '../sessions/SessionService';
import type { SettingsWatcher } from '../settings';
import type { StateStorage } from './choices';
import { CostKeeper } from './costKeeper';
import { withCacheMisses, withCallCosts } from './costs';
import { readSnapshot, type LiveSnapshot } from './liveSnapshot';
import { PlanKeeper } from './planKeeper';
import { ReadScheduler, type ReadOutcome } from './readScheduler';
import { timelineOf, type OurCompactionMark } from './timeline';

/** Reading the live context is O(live context): coalesce bursts of appends into one read. */
const READ_DEBOUNCE_MS = 300;

export class ContextModel extends Disposables {
  private readonly changed = this.own(new vscode.EventEmitter<void>());
  private readonly planChanged = this.own(new vscode.EventEmitter<PlanView | null>());
  /** The followed session whose first read is under way: the panel says so until it lands. */
  private firstReadOf: SessionHandle | null = null;
  /** The handle `current` was read with. */
  private readOf: SessionHandle | null = null;
  private current: LiveSnapshot | null = null;
  private readonly reads = this.own(
    new ReadScheduler(
      () => this.read(),
      READ_DEBOUNCE_MS,
      (error) => this.log.warn(`Reading the live context failed: ${error instanceof Error ? error.message : String(error)}`),
    ),
  );
  private lastFill: unknown = null;
  private readonly plans: PlanKeeper;
  private readonly costs = new CostKeeper();

  readonly onDidChange = this.changed.event;
  readonly onDidChangePlan = this.planChanged.event;

  constructor(
    private readonly sessions: SessionService,
    private readonly settings: SettingsWatcher,
    private readonly log: vscode.LogOutputChannel,
    workspaceState: StateStorage,
  ) {
    super();
    this.plans = new PlanKeeper(workspaceState, (plan) => this.planChanged.fire(plan));
    this.own(sessions.onDidChange(() => this.onSession()));
    this.own(settings.onDidChange(() => this.onSettings()));
    this.onSession();
  }

  get snapshot(): LiveSnapshot | null {
    return this.current;
  }

  /** A session is followed but its live context (breakdown, map) is still being read. */
  get loading(): boolean {
    return this.firstReadOf !== null;
  }

  get plan(): PlanView | null {
    return this.plans.plan;
  }

  /** The person's choices for the followed session (none without one). */
  get choices(): Choices {
    return this.plans.choicesOf(this.sessions.current.session?.path);
  }

  /** A keep/drop/pin from the panel: stored for the session and the plan recomputed at once. */
  async choose(action: ChoiceAction): Promise<void> {
    const session = this.sessions.current.session;
    if (session === null) return;
    await this.plans.choose(session.path, action);
    this.replan();
  }

  /** Applied: the choices were for the context that was just compacted. */
  async clearChoices(sessionPath: string): Promise<void> {
    await this.plans.clear(sessionPath);
    this.replan();
  }

  /** What the followed session has cost so far; null until read. */
  get cost(): CostView | null {
    return this.costs.of(this.current)?.view ?? null;
  }

  /** Does compacting `beforeTokens` to `afterTokens` pay, at the latest priced call's rates. */
  breakEven(beforeTokens: number, afterTokens: number): BreakEvenView | null {
    return this.costs.breakEven(this.settings.current.prices, this.current, beforeTokens, afterTokens);
  }

  fateOf(id: number): ItemFate | undefined {
    return this.plans.fateOf(id);
  }

  timeline(agent: readonly CompactionEvent[], ours: readonly OurCompactionMark[]): TimelinePoint[] {
    const handle = this.readOf;
    if (this.current === null || handle === null) return [];
    const report = this.costs.of(this.current)?.report ?? null;
    return withCacheMisses(
      withCallCosts(
        timelineOf(this.current.live, (uuid) => handle.usagePoint(uuid), agent, ours),
        report?.calls ?? null,
      ),
      report,
    );
  }

  private onSession(): void {
    const { handle, fill } = this.sessions.current;
    if (handle === null) {
      this.readOf = null;
      this.firstReadOf = null;
      this.setSnapshot(null);
      return;
    }
    if (this.readOf !== handle) {
      this.readOf = handle;
      this.firstReadOf = handle;
      this.setSnapshot(null);
    }
    // Only a new fill means new records; diagnostics and compaction notices come with one anyway.
    if (fill === this.lastFill) return;
    this.lastFill = fill;
    // Not before the tail read's fill: the gauge is drawn from it first, the full read follows.
    if (fill === null) return;
    this.reads.request(this.firstReadOf === handle);
  }

  private async read(): Promise<ReadOutcome> {
    const handle = this.readOf;
    try {
      return await this.readOnce();
    } finally {
      if (handle !== null && this.firstReadOf === handle) {
        // Read or failed (the log says why): either way the panel stops saying it is reading.
        this.firstReadOf = null;
        this.changed.fire();
      }
    }
  }

  /** `failed`: the snapshot or its costs could not be read this time; the scheduler reads again later. */
  private async readOnce(): Promise<ReadOutcome> {
    const handle = this.readOf;
    if (handle === null) return 'done';
    const read = await readSnapshot(handle);
    if (!read.ok) {
      this.log.warn(`Reading the live context of ${handle.session.path} failed: ${read.error.message}`);
      return 'failed';
    }
    // The user switched sessions while we read: that session's read is already scheduled.
    if (this.readOf !== handle) return 'done';
    // Shown: the panel stops saying it is reading now, not after the calls are priced below.
    if (this.firstReadOf === handle) this.firstReadOf = null;
    this.setSnapshot(read.value);
    return (await this.readCosts()) ? 'done' : 'failed';
  }

  /** Prices may have changed with any setting: cheap next to a read, and settings change seldom. */
  private onSettings(): void {
    this.replan();
    void this.readCosts();
  }

  /** False when pricing failed (a newer snapshot reading its own costs is no failure). */
  private async readCosts(): Promise<boolean> {
    const snapshot = this.current;
    const handle = this.readOf;
    if (snapshot === null || handle === null) return true;
    const { prices, pricesProblem } = this.settings.current;
    try {
      if (!(await this.costs.read(prices, pricesProblem, handle, snapshot, () => this.current))) return true;
    } catch (error) {
      this.log.warn(`Pricing the calls of ${snapshot.live.session.path} failed: ${error instanceof Error ? error.message : String(error)}`);
      return false;
    }
    this.replan();
    this.changed.fire();
    return true;
  }

  private setSnapshot(snapshot: LiveSnapshot | null): void {
    this.current = snapshot;
    this.replan();
    this.changed.fire();
  }

  private replan(): void {
    this.plans.replan(this.current, this.settings.current, this.costs.of(this.current)?.report ?? null);
  }
}
