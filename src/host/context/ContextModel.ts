// Live model of the followed session: once its fill is shown (the tail read), reads the live
// context at once, then again on every change of the fill (debounced, never two reads at once),
// and re-plans what Compact… would do. Items are sized from the agent's recorded usage with a
// one-pass estimate, so no tokenizer tables are loaded and nothing needs a worker thread.
// Settings changes re-plan without re-reading. The plan is announced only when it changed. What the
// session cost is read after the context is shown (every call of the file and its subagents), and
// again when the prices change.
import * as vscode from 'vscode';
import type { ItemFate } from '../../engine';
import type { ChoiceAction, Choices, PlanView, TimelinePoint } from '../../protocol/messages';
import type { CompactionEvent } from '../../sessions/types';
import type { SessionService } from '../sessions/SessionService';
import type { SettingsWatcher } from '../settings';
import { applyChoice, ChoiceStore, NO_CHOICES, type StateStorage } from './choices';
import { planViewOf, samePlan } from './derive';
import { livePlan, readSnapshot, type LiveSnapshot } from './liveSnapshot';
import { adapterOf } from '../../sessions/agents';
import type { UsageReader } from '../../sessions/port';
import { ReadScheduler } from './readScheduler';
import { breakEvenOf, costViewOf, itemUsdOf, readAudits, readCosts, withCacheMisses, withCallCosts, withItemCosts } from './costs';
import type { CostReport } from '../../sessions/costReport';
import type { BreakEvenView, CostView } from '../../protocol/messages';
import { timelineOf, type OurCompactionMark } from './timeline';
import { Disposables } from '../disposables';

/** Reading the live context is O(live context): coalesce bursts of appends into one read. */
const READ_DEBOUNCE_MS = 300;

export class ContextModel extends Disposables {
  private readonly changed = this.own(new vscode.EventEmitter<void>());
  private readonly planChanged = this.own(new vscode.EventEmitter<PlanView | null>());
  /** The followed session whose first read is under way: the panel says so until it lands. */
  private firstReadOf: string | null = null;
  private usage: UsageReader | null = null;
  private current: LiveSnapshot | null = null;
  private planView: PlanView | null = null;
  private fates = new Map<number, ItemFate>();
  private revision = 0;
  private readonly reads = this.own(new ReadScheduler(() => this.read(), READ_DEBOUNCE_MS));
  private lastFill: unknown = null;
  private readonly choiceStore: ChoiceStore;
  /** The costs of `current` (null until read, or when reading them failed). */
  private costs: { of: LiveSnapshot; report: CostReport; view: CostView } | null = null;

  readonly onDidChange = this.changed.event;
  readonly onDidChangePlan = this.planChanged.event;

  constructor(
    private readonly sessions: SessionService,
    private readonly settings: SettingsWatcher,
    private readonly log: vscode.LogOutputChannel,
    workspaceState: StateStorage,
  ) {
    super();
    this.choiceStore = new ChoiceStore(workspaceState);
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
    return this.planView;
  }

  /** The person's choices for the followed session (none without one). */
  get choices(): Choices {
    const session = this.sessions.current.session;
    return session ? this.choiceStore.get(session.path) : NO_CHOICES;
  }

  /** A keep/drop/pin from the panel: stored for the session and the plan recomputed at once. */
  async choose(action: ChoiceAction): Promise<void> {
    const session = this.sessions.current.session;
    if (session === null) return;
    await this.choiceStore.set(session.path, applyChoice(this.choiceStore.get(session.path), action));
    this.replan();
  }

  /** Applied: the choices were for the context that was just compacted. */
  async clearChoices(sessionPath: string): Promise<void> {
    await this.choiceStore.set(sessionPath, NO_CHOICES);
    this.replan();
  }

  /** What the followed session has cost so far; null until read. */
  get cost(): CostView | null {
    return this.currentCosts()?.view ?? null;
  }

  /** Does compacting `beforeTokens` to `afterTokens` pay, at the latest priced call's rates. */
  breakEven(beforeTokens: number, afterTokens: number): BreakEvenView | null {
    return this.current === null ? null : breakEvenOf(this.settings.current.prices, this.current, beforeTokens, afterTokens);
  }

  private currentCosts(): { report: CostReport; view: CostView } | null {
    return this.costs !== null && this.costs.of === this.current ? this.costs : null;
  }

  fateOf(id: number): ItemFate | undefined {
    return this.fates.get(id);
  }

  timeline(agent: readonly CompactionEvent[], ours: readonly OurCompactionMark[]): TimelinePoint[] {
    const usage = this.usage;
    if (this.current === null || usage === null) return [];
    const report = this.currentCosts()?.report ?? null;
    return withCacheMisses(withCallCosts(timelineOf(this.current.live, (uuid) => usage.get(uuid), agent, ours), report?.calls ?? null), report);
  }

  private onSession(): void {
    const { session, fill } = this.sessions.current;
    if (session === null) {
      this.usage = null;
      this.firstReadOf = null;
      this.setSnapshot(null);
      return;
    }
    if (this.usage?.path !== session.path) {
      this.usage = adapterOf(session.agent).usage(session.path);
      this.firstReadOf = session.path;
      this.setSnapshot(null);
    }
    // Only a new fill means new records; diagnostics and compaction notices come with one anyway.
    if (fill === this.lastFill) return;
    this.lastFill = fill;
    // Not before the tail read's fill: the gauge is drawn from it first, the full read follows.
    if (fill === null) return;
    this.reads.request(this.firstReadOf === session.path);
  }

  private async read(): Promise<void> {
    const path = this.sessions.current.session?.path;
    try {
      await this.readOnce();
    } finally {
      if (path !== undefined && this.firstReadOf === path) {
        // Read or failed (the log says why): either way the panel stops saying it is reading.
        this.firstReadOf = null;
        this.changed.fire();
      }
    }
  }

  private async readOnce(): Promise<void> {
    const session = this.sessions.current.session;
    const usage = this.usage;
    if (session === null || usage === null) return;
    const read = await readSnapshot(session, this.settings.current.windowTokensOverride);
    if (!read.ok) {
      this.log.warn(`Reading the live context of ${session.path} failed: ${read.error.message}`);
      return;
    }
    // The timeline's per-call usage: only from where the live context starts.
    await usage.update(read.value.live.startOffset);
    // The user switched sessions while we read: that session's read is already scheduled.
    if (this.sessions.current.session?.path !== session.path) return;
    this.setSnapshot(read.value);
    await this.readCosts();
  }

  /** Prices may have changed with any setting: cheap next to a read, and settings change seldom. */
  private onSettings(): void {
    this.replan();
    void this.readCosts();
  }

  private async readCosts(): Promise<void> {
    const snapshot = this.current;
    if (snapshot === null) return;
    const { prices, pricesProblem } = this.settings.current;
    try {
      const report = await readCosts(prices, snapshot);
      // An audit that cannot be read leaves History without it, never the costs.
      const audits = await readAudits(snapshot).catch(() => []);
      // A newer read replaced the snapshot meanwhile: it reads its own costs.
      if (this.current !== snapshot) return;
      this.costs = { of: snapshot, report, view: { ...costViewOf(report, pricesProblem, snapshot.context.workspace), audits } };
    } catch (error) {
      this.log.warn(`Pricing the calls of ${snapshot.live.session.path} failed: ${error instanceof Error ? error.message : String(error)}`);
      return;
    }
    this.replan();
    this.changed.fire();
  }

  private setSnapshot(snapshot: LiveSnapshot | null): void {
    this.current = snapshot;
    this.replan();
    this.changed.fire();
  }

  private replan(): void {
    const snapshot = this.current;
    let next: PlanView | null = null;
    this.fates = new Map();
    if (snapshot !== null && snapshot.context.items.length > 0) {
      const choices = this.choices;
      const planned = livePlan(snapshot, this.settings.current, choices);
      this.fates = new Map(planned.items.map((fate) => [fate.id, fate]));
      const costs = this.currentCosts();
      const view = planViewOf(snapshot.context, planned, this.revision + 1, choices);
      next = { ...view, regions: withItemCosts(view.regions, costs ? itemUsdOf(costs.report) : null) };
    }
    if (samePlan(this.planView, next)) return;
    if (next !== null) this.revision = next.revision;
    this.planView = next;
    this.planChanged.fire(next);
  }

}
