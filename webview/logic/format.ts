// Display wording shared by the panel's sections. DOM-free so it is unit-tested under node; the
// numbers themselves all come from the host — these functions only phrase them.
import type { Fate, Fill } from '../../src/protocol/messages';
import { exactTokens, formatTokens, percentOf } from '../../src/protocol/format';
export { plural } from '../../src/base/format';

export { exactTokens } from '../../src/protocol/format';

export { CATEGORY_NAMES as CATEGORY_LABELS, CATEGORY_SHORT } from '../../src/protocol/categories';

/** Fates carry a word and a codicon next to their colour, so colour is never the only cue. */
export const FATE_ICONS: Readonly<Record<Fate | 'pinned', string>> = {
  preserved: 'check',
  compacted: 'fold',
  dropped: 'trash',
  pinned: 'pinned',
};

/** The e2e suite and the CLI agree on this exact text: `124,310 / 200,000 tokens · 62.2 %`. */
export function fillSummary(fill: Fill): string {
  return `${exactTokens(fill.usedTokens)} / ${exactTokens(fill.windowTokens)} tokens · ${percentOf(fill.usedTokens, fill.windowTokens).toFixed(1)} %`;
}

export function fillSource(fill: Fill): string {
  return fill.source === 'usage' ? "(exact, from the last response's usage)" : '(estimate)';
}

/** "96k → 41k (−57 %)"; unknown sides read "?" so a partial history entry still says something. */
export function beforeAfter(before: number | null, after: number | null, savingsPct: number | null): string {
  const side = (tokens: number | null) => (tokens === null ? '?' : formatTokens(tokens));
  const savings = savingsPct === null ? '' : ` (${signedPercent(-savingsPct)})`;
  return `${side(before)} → ${side(after)}${savings}`;
}

/** "−52,400 tokens (−42 %)": the saving as a reduction, with a real minus sign. */
export function savingsText(before: number, after: number, savingsPct: number): string {
  const delta = after - before;
  return `${delta < 0 ? '−' : '+'}${exactTokens(Math.abs(delta))} tokens (${signedPercent(-savingsPct)})`;
}

function signedPercent(value: number): string {
  const rounded = Math.round(value);
  if (rounded === 0) return '0 %';
  return `${rounded < 0 ? '−' : '+'}${Math.abs(rounded)} %`;
}

/** Local wall-clock time of an ISO timestamp ("10:42"), or "—" when the transcript had none. */
export function clockTime(iso: string | null): string {
  if (iso === null) return '—';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '—';
  return `${String(date.getHours()).padStart(2, '0')}:${String(date.getMinutes()).padStart(2, '0')}`;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/**
 * When something happened, as a list of past events should say it: "15:27" today, "Nov 24, 15:50"
 * earlier this year, "Nov 24 2025, 15:50" before that (local time); "—" without a time. A bare
 * clock time next to one from another day reads as the wrong order.
 */
export function eventTime(iso: string | null, now: Date = new Date()): string {
  const clock = clockTime(iso);
  if (iso === null || clock === '—') return clock;
  const date = new Date(iso);
  if (date.getFullYear() === now.getFullYear() && date.getMonth() === now.getMonth() && date.getDate() === now.getDate()) return clock;
  const day = `${MONTHS[date.getMonth()]} ${date.getDate()}`;
  return date.getFullYear() === now.getFullYear() ? `${day}, ${clock}` : `${day} ${date.getFullYear()}, ${clock}`;
}

/** How a compaction started, in plain words ("auto" and "manual" are the agents' own field values). */
export function triggerText(trigger: string): string {
  if (trigger === 'auto') return 'by itself';
  if (trigger === 'manual') return 'when asked';
  if (trigger === 'fork') return 'fork found beside this session';
  return trigger;
}

/**
 * Newest first by timestamp, whatever order the host sent; entries without a time keep their
 * place relative to each other (the sort is stable) and go last, since they cannot be placed.
 */
export function newestFirst<T extends { at: string | null }>(entries: readonly T[]): T[] {
  const time = (entry: T) => (entry.at === null ? Number.NEGATIVE_INFINITY : Date.parse(entry.at) || Number.NEGATIVE_INFINITY);
  // Two untimed entries give −∞ − −∞ = NaN, which `|| 0` turns into "equal".
  return [...entries].sort((a, b) => time(b) - time(a) || 0);
}
