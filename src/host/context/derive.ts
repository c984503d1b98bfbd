// What the panel shows about a context, derived from the engine's view of it. Kept free of `vscode`
// so the derivations are unit-tested with plain node.
import { categoryOf, type CompactionPlan, type Context, type ItemFate } from '../../engine';
import { CATEGORIES, type Breakdown, type Category, type Choices, type PlanView, type Region } from '../../protocol/messages';
import { NO_CHOICES } from './choices';
import { CATEGORY_NAMES } from '../../protocol/categories';
import { regionLabel } from '../../protocol/regionLabel';

export { regionLabel };

/** Tokens per gauge category, in stacking order; categories without tokens are left out. */
export function breakdownOf(context: Context): Breakdown {
  const totals = new Map<Category, number>();
  for (const item of context.items) totals.set(categoryOf(item), (totals.get(categoryOf(item)) ?? 0) + item.tokens);
  return CATEGORIES.flatMap((category) => {
    const tokens = totals.get(category) ?? 0;
    return tokens > 0 ? [{ category, tokens }] : [];
  });
}

/** One region per item, in context order, with the fate the engine gave it. */
export function regionsOf(context: Context, fates: readonly ItemFate[]): Region[] {
  return fates.flatMap((fate) => {
    const item = context.items[fate.id];
    if (item === undefined) return [];
    return [
      {
        id: fate.id,
        turn: fate.turn,
        kind: categoryOf(item),
        label: regionLabel(item, context.workspace),
        tokens: fate.tokensBefore,
        tokensAfter: fate.tokensAfter,
        fate: fate.fate,
        reason: fate.reason.slice(0, 1000),
        tier: fate.tier ?? null,
        protection: fate.protection ?? null,
        // A prompt kept for being the person's own is drawn like a pinned one: no tier touches it.
        pinned: fate.protection === 'pinned' || fate.protection === 'prompt',
        markerCount: fate.markers?.length ?? 0,
      },
    ];
  });
}

/** The live plan as the panel shows it; `revision` is assigned by whoever tracks changes. */
export function planViewOf(context: Context, plan: CompactionPlan, revision: number, choices: Choices = NO_CHOICES): PlanView {
  return {
    choices,
    revision,
    targetTokens: plan.metrics.targetTokens,
    beforeTokens: plan.metrics.tokensBefore,
    afterTokens: plan.metrics.tokensAfter,
    savingsPct: plan.metrics.savingsPercent,
    regions: regionsOf(context, plan.items),
  };
}

/** Equal when two plan views would render the same, ignoring their revisions. */
export function samePlan(a: PlanView | null, b: PlanView | null): boolean {
  if (a === null || b === null) return a === b;
  return JSON.stringify({ ...a, revision: 0 }) === JSON.stringify({ ...b, revision: 0 });
}

/** `system prompt 9k · tools 9k · tool results 88k` for the status bar tooltip, in the panel's words. */
export function legendOf(breakdown: Breakdown, format: (tokens: number) => string): string {
  return breakdown.map(({ category, tokens }) => `${CATEGORY_NAMES[category]} ${format(tokens)}`).join(' · ');
}
