// The map's cost views: rows sorted by tokens or by what they cost, all reads of one file grouped,
// and the preview's rows given the costs the live plan carries (the same items, by id).
import { formatUsd } from '../../src/protocol/format';
import type { CostView, Region, ResourceCost } from '../../src/protocol/messages';
import { plural } from '../../src/base/format';

export const MAP_SORTS = ['order', 'tokens', 'cost'] as const;
export type MapSort = (typeof MAP_SORTS)[number];

/** `visible` (indices into `regions`) in context order, or biggest first; ties keep context order. */
export function sortVisible(regions: readonly Region[], visible: readonly number[], sort: MapSort): number[] {
  if (sort === 'order') return [...visible];
  const key = (index: number): number => {
    const region = regions[index] as Region;
    // Unpriced items sort after every priced one.
    return sort === 'tokens' ? region.tokens : (region.usd ?? -1);
  };
  return [...visible].sort((a, b) => key(b) - key(a) || a - b);
}

/** Resource groups biggest first by `sort` (cost, or tokens now); context order falls back to cost. */
export function sortGroups(groups: readonly ResourceCost[], sort: MapSort): ResourceCost[] {
  return [...groups].sort((a, b) => (sort === 'tokens' ? b.tokens - a.tokens || b.usd - a.usd : b.usd - a.usd || b.tokens - a.tokens));
}

/** The cost cell of a row: `$0.0031`, or a dash when the item's model has no price. */
export function costCell(region: Pick<Region, 'usd'>): string {
  return region.usd === undefined ? '—' : formatUsd(region.usd);
}

/** "4 tool calls": the reads, edits and writes of a file (or runs of a command) that touched it. */
export function groupCountText(group: Pick<ResourceCost, 'count'>): string {
  return `${plural(group.count, 'tool call')}`;
}

/**
 * A preview's regions with the costs of the live plan's (the same context items, same ids): the
 * preview is a run on that context, carrying the items cost nothing new.
 */
export function withPlanCosts(regions: readonly Region[], plan: readonly Region[] | undefined): readonly Region[] {
  if (plan === undefined || !plan.some((region) => region.usd !== undefined)) return regions;
  const usd = new Map(plan.map((region) => [region.id, region.usd]));
  return regions.map((region) => {
    const cost = usd.get(region.id);
    return region.usd !== undefined || cost === undefined ? region : { ...region, usd: cost };
  });
}

type Subagent = CostView['subagents'][number];

/** A subagent's cost: `$0.12`, or "no price for <model>" when none of its calls had one. */
export function subagentCostText(agent: Pick<Subagent, 'usd' | 'unpriced'>): string {
  return agent.unpriced.length > 0 && agent.usd === 0 ? `no price for ${agent.unpriced.join(', ')}` : formatUsd(agent.usd);
}

/** Costliest first, then the busiest; ties keep the listing's order. */
export function sortSubagents(agents: readonly Subagent[]): Subagent[] {
  return [...agents].sort((a, b) => b.usd - a.usd || b.calls - a.calls);
}
