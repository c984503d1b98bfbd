// Cost by resource: every read of a file (whatever its range), every run of a command, as one group,
// so "src/big.ts was read 4 times, holds 12k tokens now and has cost $0.38 so far" is one line.
import { filePathOf } from '../engine';

export interface ResourceItem {
  resourceKey?: string;
  toolUseId?: string;
  tokens: number;
}

export interface ResourceGroup {
  /** The file's path for file resources (reads of any range together), else the resource key. */
  resource: string;
  file: boolean;
  /** Tool calls that touched it (a call and its result count once). */
  count: number;
  tokens: number;
  usd: number;
  /** The items in it, by position. */
  items: number[];
}

/** Groups of items touching the same resource, costliest first; `usd[i]` is item i's cost. */
export function costByResource(items: readonly ResourceItem[], usd: readonly number[]): ResourceGroup[] {
  const groups = new Map<string, ResourceGroup & { calls: Set<string> }>();
  items.forEach((item, index) => {
    if (item.resourceKey === undefined) return;
    const path = filePathOf(item.resourceKey);
    const resource = path ?? item.resourceKey;
    const group = groups.get(resource) ?? { resource, file: path !== undefined, count: 0, tokens: 0, usd: 0, items: [], calls: new Set<string>() };
    group.calls.add(item.toolUseId ?? `#${index}`);
    group.tokens += item.tokens;
    group.usd += usd[index] ?? 0;
    group.items.push(index);
    groups.set(resource, group);
  });
  return [...groups.values()].map(({ calls, ...group }) => ({ ...group, count: calls.size })).sort((a, b) => b.usd - a.usd || b.tokens - a.tokens);
}
