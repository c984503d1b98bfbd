// Tier 1 (S5–S7): stale tool outputs. When a newer result exists for the same resource (same file
// and range, same command, same query) or the file was written later, the older output says nothing
// the model can still rely on; it becomes an explicit stub so the model knows something was there.
import { filePathOf, resourceLabel } from '../resource';
import { redactIdentifier } from '../redact';
import type { SupersedeOptions } from '../options';
import type { ContextItem, ToolCategory } from '../model';
import { isOpen, replace, targetMet, type LadderState, type PlannedItem, type TierReport } from './state';
import { archiveRef, countStub, PENDING_ARCHIVE_ID } from './stubText';
import { thousands } from '../../base/format';

export function categoryAllowed(category: ToolCategory | undefined, options: Pick<SupersedeOptions, 'allowedCategories' | 'deniedCategories'>): boolean {
  const effective = category ?? 'other';
  if (options.deniedCategories.includes(effective)) return false;
  return options.allowedCategories.length === 0 || options.allowedCategories.includes(effective);
}

const PLACEHOLDER = /\{(resource|bytes|tokens|reason|size|tool|ref)\}/g;

export interface StubValues {
  resource: string;
  bytes: number;
  tokens: number;
  reason: string;
  /** Tool name; `tool` when unknown. */
  tool?: string;
  /** Where the archive keeps the output (`<archive id>#<item id>`). */
  ref?: string;
}

export function fillStubTemplate(template: string, values: StubValues): string {
  // No archive entry to cite: the stub says nothing about one.
  const used = values.ref ? template : template.replace(/ ?ref: \{ref\}/, '');
  return used.replace(PLACEHOLDER, (_match, key: string) => {
    // `{size}` is seed 002's older name for the byte count.
    if (key === 'size' || key === 'bytes') return thousands(values.bytes);
    if (key === 'tokens') return thousands(values.tokens);
    if (key === 'tool') return values.tool ?? 'tool';
    if (key === 'ref') return values.ref ?? '';
    return key === 'resource' ? values.resource : values.reason;
  });
}

/** Matches any stub `fillStubTemplate` can write from `template`, so a later run knows it for one. */
export function stubPattern(template: string): RegExp {
  // A stub written without an archive has no ref to cite, so a trailing one is optional.
  const trailingRef = / ref: \{ref\}$/.test(template);
  const core = trailingRef ? template.replace(/ ref: \{ref\}$/, '') : template;
  // Splitting on a capturing pattern alternates literal text (even indexes) and placeholder names.
  const parts = core.split(PLACEHOLDER).map((part, index) => {
    if (index % 2 === 0) return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    return part === 'resource' || part === 'reason' || part === 'ref' || part === 'tool' ? '[\\s\\S]*?' : '[\\d,]+';
  });
  return new RegExp(`^${parts.join('')}${trailingRef ? '(?: ref:(?: [\\w-]+#\\d+)?)?' : ''}$`);
}

interface Staleness {
  newer: ContextItem;
  why: string;
  stubReason: string;
}

/** For each tool result, the newer item that makes it stale (if any). */
export function findStale(items: readonly ContextItem[], options: SupersedeOptions): Map<number, Staleness> {
  const stale = new Map<number, Staleness>();
  const newerByKey = new Map<string, ContextItem[]>();
  const lastWriteByPath = new Map<string, ContextItem>();
  // Walk newest → oldest so "newer" is known when an older result is met.
  for (let index = items.length - 1; index >= 0; index--) {
    const item = items[index];
    if (!item || item.kind !== 'tool_result' || !item.resourceKey) continue;
    const path = filePathOf(item.resourceKey);
    if (item.toolCategory === 'file_write') {
      if (path !== undefined) lastWriteByPath.set(path, item);
      continue;
    }
    const newer = newerByKey.get(item.resourceKey) ?? [];
    const kind =
      path !== undefined
        ? 'same file'
        : item.toolCategory === 'search'
          ? 'same query'
          : item.toolCategory?.endsWith('execution')
            ? 'same command'
            : 'same resource';
    const newest = newer[0];
    if (newer.length >= options.preserveLastNResults && newest) {
      stale.set(item.id, {
        newer: newest,
        why: `superseded by #${newest.id} (${kind}, newer)`,
        stubReason: `a newer result for this resource exists later (#${newest.id})`,
      });
    } else if (options.writesSupersedeReads && path !== undefined) {
      const write = lastWriteByPath.get(path);
      if (write)
        stale.set(item.id, { newer: write, why: `superseded by #${write.id} (file written later)`, stubReason: `the file was changed later (#${write.id})` });
    }
    newer.unshift(item);
    newerByKey.set(item.resourceKey, newer);
  }
  return stale;
}

export function runSupersede(state: LadderState): TierReport {
  const report: TierReport = { tier: 'supersede', acted: 0, tokensSaved: 0 };
  const options = state.options.supersede;
  const stale = findStale(state.context.items, options);
  const candidates: PlannedItem[] = [];
  for (const planned of state.planned) {
    if (stale.has(planned.item.id) && isOpen(planned) && categoryAllowed(planned.item.toolCategory, options)) candidates.push(planned);
  }
  // Oldest first: the oldest copies are the least likely to still be referenced.
  for (const planned of candidates) {
    if (targetMet(state)) break;
    const staleness = stale.get(planned.item.id);
    const resourceKey = planned.item.resourceKey;
    if (!staleness || !resourceKey) continue;
    const label = resourceLabel(resourceKey);
    const stub = fillStubTemplate(options.stubTemplate, {
      resource: options.redactIdentifiers ? redactIdentifier(label) : label,
      bytes: Buffer.byteLength(planned.item.text, 'utf8'),
      tokens: planned.item.tokens,
      reason: staleness.stubReason,
      tool: planned.item.toolName ?? 'tool',
      ref: archiveRef(PENDING_ARCHIVE_ID, planned.item.id).slice('ref: '.length),
    });
    const tokensAfter = countStub(state, stub);
    if (tokensAfter >= planned.tokensAfter) continue;
    report.tokensSaved += replace(state, planned, { fate: 'compacted', reason: staleness.why, tier: 'supersede', text: stub, tokensAfter });
    report.acted += 1;
  }
  return report;
}

/** Resources with at least one copy stubbed by this tier, for the metrics (seed 002 `stale_resources`). */
export function staleResources(planned: readonly PlannedItem[]): string[] {
  const keys = new Set<string>();
  for (const entry of planned)
    if (entry.prunedBy === 'supersede' && entry.item.resourceKey) keys.add(`${entry.item.toolName ?? 'tool'}:${resourceLabel(entry.item.resourceKey)}`);
  return [...keys];
}
