// The region map's filter box: `kind:tool_result fate:dropped retry` keeps rows whose kind and
// fate match (prefixes allowed, so `fate:comp` works) and whose label or reason contains the rest.
// `pinned` as a fate matches pinned rows, since the map shows them as their own fate.
import type { Region } from '../../src/protocol/messages';

export interface RegionFilter {
  readonly kinds: readonly string[];
  readonly fates: readonly string[];
  readonly words: readonly string[];
}

export function parseFilter(query: string): RegionFilter {
  const kinds: string[] = [];
  const fates: string[] = [];
  const words: string[] = [];
  for (const token of query.toLowerCase().split(/\s+/).filter(Boolean)) {
    if (token.startsWith('kind:') && token.length > 5) kinds.push(token.slice(5));
    else if (token.startsWith('fate:') && token.length > 5) fates.push(token.slice(5));
    else words.push(token);
  }
  return { kinds, fates, words };
}

export function isEmptyFilter(filter: RegionFilter): boolean {
  return filter.kinds.length === 0 && filter.fates.length === 0 && filter.words.length === 0;
}

/** The fate the map shows: pinned wins, because the user asked for it explicitly. */
export function shownFate(region: Region): Region['fate'] | 'pinned' {
  return region.pinned ? 'pinned' : region.fate;
}

export function matchesFilter(region: Region, filter: RegionFilter): boolean {
  if (filter.kinds.length && !filter.kinds.some((kind) => region.kind.startsWith(kind))) return false;
  if (filter.fates.length && !filter.fates.some((fate) => shownFate(region).startsWith(fate) || region.fate.startsWith(fate))) return false;
  if (filter.words.length) {
    const haystack = `${region.id} ${region.kind} ${region.label} ${region.reason} ${region.tier ?? ''} ${region.protection ?? ''}`.toLowerCase();
    return filter.words.every((word) => haystack.includes(word));
  }
  return true;
}

/** Indices of the rows that pass, so the map keeps the original array and only indexes into it. */
export function filterRegions(regions: readonly Region[], query: string): number[] {
  const filter = parseFilter(query);
  const indices: number[] = [];
  const all = isEmptyFilter(filter);
  for (let index = 0; index < regions.length; index++) {
    if (all || matchesFilter(regions[index]!, filter)) indices.push(index);
  }
  return indices;
}
