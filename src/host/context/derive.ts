// What the panel shows about a context, derived from the engine's view of it. Kept free of `vscode`
// so the derivations are unit-tested with plain node.
import { categoryOf, type CompactionPlan, type Context, type ContextItem, type ItemFate } from '../../engine';
import { CATEGORIES, type Breakdown, type Category, type PlanView, type Region } from '../../protocol/messages';
import type { FillSnapshot } from '../../sessions/types';

const LABEL_MAX = 200;
const FIRST_WORDS_CHARS = 60;
/** Claude Code compacts this many tokens before its effective window is full (see window.ts). */
const AUTO_COMPACT_BUFFER_TOKENS = 13_000;

/** Tokens per gauge category, in stacking order; categories without tokens are left out. */
export function breakdownOf(context: Context): Breakdown {
  const totals = new Map<Category, number>();
  for (const item of context.items) totals.set(categoryOf(item), (totals.get(categoryOf(item)) ?? 0) + item.tokens);
  return CATEGORIES.flatMap((category) => {
    const tokens = totals.get(category) ?? 0;
    return tokens > 0 ? [{ category, tokens }] : [];
  });
}

/**
 * Output tokens Claude Code keeps free for the next response: its auto-compact point sits
 * `min(maxOutput, 20000) + 13000` below the window, so the reserve is what is left after the buffer.
 */
export function reservedOutputTokensOf(fill: Pick<FillSnapshot, 'windowTokens' | 'agentAutoCompactTokens'>): number {
  return Math.max(0, fill.windowTokens - fill.agentAutoCompactTokens - AUTO_COMPACT_BUFFER_TOKENS);
}

/** `file:/a/b.ts#10+20` → `/a/b.ts#10+20`; the prefix says what the tool name already says. */
function resourceText(resourceKey: string): string {
  return resourceKey.replace(/^(file|cmd|url|dir):/, '').replace(/^(search|tool):[^:]*:/, '');
}

function firstWords(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > FIRST_WORDS_CHARS ? `${flat.slice(0, FIRST_WORDS_CHARS - 1)}…` : flat;
}

/** What a row of the region map calls an item: the tool and what it touched, else its first words. */
export function regionLabel(item: Pick<ContextItem, 'kind' | 'text' | 'toolName' | 'resourceKey'>): string {
  let label: string;
  if (item.toolName) label = `${item.toolName} ${item.resourceKey ? resourceText(item.resourceKey) : firstWords(item.text)}`;
  else label = firstWords(item.text) || item.kind;
  return label.length > LABEL_MAX ? `${label.slice(0, LABEL_MAX - 1)}…` : label;
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
        label: regionLabel(item),
        tokens: fate.tokensBefore,
        tokensAfter: fate.tokensAfter,
        fate: fate.fate,
        reason: fate.reason.slice(0, 1000),
        tier: fate.tier ?? null,
        protection: fate.protection ?? null,
        pinned: fate.protection === 'pinned',
        markerCount: fate.markers?.length ?? 0,
      },
    ];
  });
}

/** The live plan as the panel shows it; `revision` is assigned by whoever tracks changes. */
export function planViewOf(context: Context, plan: CompactionPlan, revision: number): PlanView {
  return {
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

/** `system 9k · tools 9k · tool result 88k` for the status bar tooltip. */
export function legendOf(breakdown: Breakdown, format: (tokens: number) => string): string {
  const name = (category: Category): string => (category === 'unrecorded' ? 'system + tools (not recorded)' : category.replace('_', ' '));
  return breakdown.map(({ category, tokens }) => `${name(category)} ${format(tokens)}`).join(' · ');
}
