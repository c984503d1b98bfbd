// What the followed session has cost, as the panel shows it: built on the cost report `inspect`
// prints too (the same figures), turned into the panel's shapes. Free of `vscode`.
import { costReport, compactCost, inheritedMost, startedWithText, type CostReport } from '../../sessions/costReport';
import { BUNDLED_PRICES, indexPrices, indexWithOverrides, type PriceIndex } from '../../pricing';
import type { BreakEvenView, CompactionAuditView, CostView, Preview, Region, TimelinePoint } from '../../protocol/messages';
import type { SessionHandle } from '../../sessions/port';
import { droppedSentence, type AuditEntry } from '../../engine';
import { cacheSentence, missSentence } from '../../pricing';
import { formatTokens, formatUsd } from '../../protocol/format';
import { auditCompactions } from '../../sessions/compactionAudit';
import type { LiveSnapshot } from './liveSnapshot';
import { shortPath } from '../../base/format';

/** The `cost.prices` setting holds whatever JSON a person typed: checked, and refused whole (with the reason) when wrong. */
export function pricesOf(value: unknown): { prices: PriceIndex; pricesProblem: string | null } {
  const priced = indexWithOverrides(BUNDLED_PRICES, value ?? {});
  if (!priced.ok) return { prices: indexPrices(BUNDLED_PRICES), pricesProblem: `contextLens.cost.prices refused (bundled prices used): ${priced.error}` };
  return { prices: priced.value, pricesProblem: null };
}

/** Every call of the session (and its subagents, read once per change by its handle), priced with the live context's items. */
export function readCosts(index: PriceIndex, handle: SessionHandle, snapshot: LiveSnapshot): Promise<CostReport> {
  return costReport(index, { readSessionCalls: () => handle.calls() }, snapshot.live, snapshot.context);
}

/** The agent's own compactions audited, for History (read with the costs: both read the session again, off the live path). */
export async function readAudits(snapshot: LiveSnapshot): Promise<CompactionAuditView[]> {
  // A compaction's audit never changes once written (the bytes before it and the summary stay): each is read once.
  const keyOf = (uuid: string): string => `${snapshot.live.session.path}\u0000${uuid}`;
  const audited = await auditCompactions(snapshot.adapter, snapshot.live, snapshot.context, 10, (event) => AUDITS.has(keyOf(event.uuid)));
  const clip = (entry: AuditEntry) => ({ kind: entry.kind, text: entry.text.slice(0, 500) });
  for (const { index, audit } of audited) {
    const uuid = snapshot.live.compactions[index]?.uuid ?? '';
    AUDITS.set(keyOf(uuid), {
      id: uuid.slice(0, 200),
      sentence: droppedSentence(audit),
      carried: audit.carried.slice(0, 200).map(clip),
      dropped: audit.dropped.slice(0, 200).map(clip),
    });
    if (AUDITS.size > MAX_AUDITS) AUDITS.delete(AUDITS.keys().next().value as string);
  }
  return snapshot.live.compactions.flatMap((event) => AUDITS.get(keyOf(event.uuid)) ?? []).slice(-10);
}

const AUDITS = new Map<string, CompactionAuditView>();
const MAX_AUDITS = 200;

/** `workspace`: the session's folder; files under it are named relative to it, as the map's labels name them. */
export function costViewOf(report: CostReport, problem: string | null, workspace?: string): CostView {
  const { session } = report;
  return {
    sessionUsd: session.usd,
    calls: session.calls,
    unpriced: session.unpriced.map((row) => row.model).slice(0, 50),
    prices: report.prices,
    problem,
    byResource: report.byFile
      .slice(0, 5_000)
      .map(({ resource, file, count, tokens, usd }) => ({ resource: shortPath(resource, workspace).slice(0, 500), file, count, tokens, usd })),
    subagents: report.subagents.slice(0, 500).map(({ title, calls, tokens, usd, unpriced, firstPromptTokens, parentTokens }) => ({
      title: title.slice(0, 200),
      calls,
      tokens,
      usd,
      unpriced: unpriced.slice(0, 50),
      ...(firstPromptTokens
        ? {
            started: startedWithText(firstPromptTokens, parentTokens ?? null, formatTokens).slice(0, 200),
            inheritedMost: inheritedMost(firstPromptTokens, parentTokens ?? null),
          }
        : {}),
    })),
    cache:
      report.cache.calls === 0
        ? null
        : {
            sentence: cacheSentence(report.cache, formatUsd).slice(0, 300),
            hitRatio: report.cache.hitRatio,
            misses: report.cache.misses.length,
            usd: report.cache.usd,
            detail: report.cache.misses
              .slice(-20)
              .map((miss) => `${miss.at === null ? '' : `${miss.at.slice(11, 16)} `}${missSentence(miss, formatUsd)}`.slice(0, 300)),
          },
  };
}

/**
 * Each cache miss on the timeline's call points: the hover says "cache miss after 7 min idle: +$0.41".
 * A point is dated by its response's first line, a miss by its newest (as its call is); the next call
 * starts after that response ended, so a miss belongs to the latest call point at or before it. A
 * miss before the live chain has no point.
 */
export function withCacheMisses(points: readonly TimelinePoint[], report: CostReport | null): TimelinePoint[] {
  if (report === null || report.cache.misses.length === 0) return [...points];
  const calls = points
    .flatMap((point, index) =>
      point.event === null && point.at !== null && Number.isFinite(Date.parse(point.at)) ? [{ index, ms: Date.parse(point.at) }] : [],
    )
    .sort((a, b) => a.ms - b.ms);
  const first = calls[0]?.ms ?? Infinity;
  const marked = new Map<number, CostReport['cache']['misses'][number]>();
  for (const miss of report.cache.misses) {
    const ms = miss.at === null ? NaN : Date.parse(miss.at);
    if (!Number.isFinite(ms) || ms < first) continue;
    const call = calls.filter((candidate) => candidate.ms <= ms).at(-1);
    if (call !== undefined) marked.set(call.index, miss);
  }
  return points.map((point, index) => {
    const miss = marked.get(index);
    return miss === undefined
      ? point
      : {
          ...point,
          cacheMiss: { cause: miss.cause, usd: miss.usd === null ? null : Math.max(0, miss.usd), label: missSentence(miss, formatUsd).slice(0, 300) },
        };
  });
}

/** Each item's cost, or null when no call of the live context has a price (tokens only, not $0.00). */
export function itemUsdOf(report: CostReport): number[] | null {
  return report.calls.some((call) => call.usd !== null) ? report.items : null;
}

/** Each region with what carrying its item has cost so far (`usd[id]`); without costs, left as they are. */
export function withItemCosts(regions: readonly Region[], usd: readonly number[] | null): Region[] {
  if (usd === null) return [...regions];
  return regions.map((region) => {
    const cost = usd[region.id];
    return cost === undefined || !Number.isFinite(cost) ? region : { ...region, usd: Math.max(0, cost) };
  });
}

/**
 * Each call's cost on the timeline's points. Points come from the per-call usage reader and the
 * costs from the live chain's calls: both carry the response's timestamp, which joins them.
 */
export function withCallCosts(points: readonly TimelinePoint[], calls: CostReport['calls'] | null): TimelinePoint[] {
  if (calls === null) return [...points];
  const byTime = new Map<string, number | null>();
  for (const call of calls) if (call.at !== null && !byTime.has(call.at)) byTime.set(call.at, call.usd);
  return points.map((point) =>
    point.event === null && point.at !== null && byTime.has(point.at) ? { ...point, usd: byTime.get(point.at) as number | null } : point,
  );
}

/** The preview with its break-even line (a preview shown before the context was read has none). */
export function withBreakEven(preview: Preview | null, index: PriceIndex, snapshot: LiveSnapshot | null): Preview | null {
  if (preview === null || snapshot === null) return preview;
  return { ...preview, breakEven: breakEvenOf(index, snapshot, preview.beforeTokens, preview.afterTokens) };
}

/** The preview's break-even line: at the rates of the session's latest priced call; null without one. */
export function breakEvenOf(index: PriceIndex, snapshot: LiveSnapshot, beforeTokens: number, afterTokens: number): BreakEvenView | null {
  const figures = compactCost(index, snapshot.live, beforeTokens, afterTokens);
  if (figures === null) return null;
  return {
    model: figures.model.slice(0, 200),
    oneOffUsd: figures.oneOffUsd,
    savingPerCallUsd: figures.savingPerCallUsd,
    breakEvenCalls: figures.breakEvenCalls,
    sentence: figures.sentence.slice(0, 300),
  };
}
