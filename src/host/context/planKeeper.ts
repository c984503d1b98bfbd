// What Compact… would do with the followed session's live context, kept for the map: the person's
// choices (stored per session), the plan with them, each item's fate, and the plan's revision. It is
// re-planned when the context, the choices, the costs or the settings change, and announced only
// when it changed. Free of `vscode`: the ContextModel wires it to events.
import type { ItemFate } from '../../engine';
import type { ChoiceAction, Choices, PlanView } from '../../protocol/messages';
import type { CostReport } from '../../sessions/costReport';
import type { Settings } from '../settings';
import { applyChoice, ChoiceStore, NO_CHOICES, type StateStorage } from './choices';
import { itemUsdOf, withItemCosts } from './costs';
import { planViewOf, samePlan } from './derive';
import { livePlan, type LiveSnapshot } from './liveSnapshot';

export class PlanKeeper {
  private planView: PlanView | null = null;
  private fates = new Map<number, ItemFate>();
  private revision = 0;
  private readonly store: ChoiceStore;

  constructor(
    workspaceState: StateStorage,
    private readonly announce: (plan: PlanView | null) => void,
  ) {
    this.store = new ChoiceStore(workspaceState);
  }

  get plan(): PlanView | null {
    return this.planView;
  }

  /** The person's choices for the session at `path` (none without one). */
  choicesOf(path: string | undefined): Choices {
    return path === undefined ? NO_CHOICES : this.store.get(path);
  }

  async choose(path: string, action: ChoiceAction): Promise<void> {
    await this.store.set(path, applyChoice(this.store.get(path), action));
  }

  async clear(path: string): Promise<void> {
    await this.store.set(path, NO_CHOICES);
  }

  fateOf(id: number): ItemFate | undefined {
    return this.fates.get(id);
  }

  /** Plans `snapshot` (null: nothing followed) with the settings, the choices and the costs of it. */
  replan(snapshot: LiveSnapshot | null, settings: Settings, costs: CostReport | null): void {
    let next: PlanView | null = null;
    this.fates = new Map();
    if (snapshot !== null && snapshot.context.items.length > 0) {
      const choices = this.choicesOf(snapshot.live.session.path);
      const planned = livePlan(snapshot, settings, choices);
      this.fates = new Map(planned.items.map((fate) => [fate.id, fate]));
      const view = planViewOf(snapshot.context, planned, this.revision + 1, choices);
      next = { ...view, regions: withItemCosts(view.regions, costs ? itemUsdOf(costs) : null) };
    }
    if (samePlan(this.planView, next)) return;
    if (next !== null) this.revision = next.revision;
    this.planView = next;
    this.announce(next);
  }
}
