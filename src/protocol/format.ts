// Number formatting shared by the host (status bar) and the webview, so both say the same thing.
import { thousands } from '../base/format';

/** 124310 → "124k", 1_000_000 → "1M", 950 → "950". */
export function formatTokens(tokens: number): string {
  if (tokens >= 1_000_000) return `${trimZero((tokens / 1_000_000).toFixed(tokens % 1_000_000 === 0 ? 0 : 2))}M`;
  if (tokens >= 1_000) return `${Math.round(tokens / 1_000)}k`;
  return String(Math.round(tokens));
}

/** 149524 → "149,524": the exact count, grouped the same way in every place that prints one. */
export function exactTokens(tokens: number): string {
  return thousands(tokens);
}

/** "150,127 → 24,951 tokens": a compaction's before and after; an unknown side reads "?". */
export function tokensBeforeAfter(before: number | null, after: number | null): string {
  const side = (tokens: number | null): string => (tokens === null ? '?' : exactTokens(tokens));
  return `${side(before)} → ${side(after)} tokens`;
}

export function percentOf(part: number, whole: number): number {
  return whole > 0 ? (part / whole) * 100 : 0;
}

function trimZero(text: string): string {
  return text.includes('.') ? text.replace(/\.?0+$/, '') : text;
}

/**
 * US dollars as people read them: `$1,234`, `$12.30`, `$0.41`, and small amounts to two significant
 * digits (`$0.0031`) so a cheap item does not read as free. A damaged amount reads `$?`.
 */
export function formatUsd(usd: number): string {
  if (!Number.isFinite(usd)) return '$?';
  const sign = usd < 0 ? '-' : '';
  const value = Math.abs(usd);
  if (value === 0) return '$0.00';
  const decimals = value >= 1000 ? 0 : value >= 0.01 ? 2 : Math.min(8, 1 - Math.floor(Math.log10(value)));
  const [whole, fraction] = value.toFixed(decimals).split('.') as [string, string | undefined];
  return `${sign}$${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}${fraction === undefined ? '' : `.${fraction}`}`;
}

/** "costs $0.41 once, saves $0.12 per call: pays off after 4 calls" (the compaction preview's line). */
export function breakEvenSentence(figures: { oneOffUsd: number; savingPerCallUsd: number; breakEvenCalls: number | null }): string {
  const head = `costs ${formatUsd(figures.oneOffUsd)} once, saves ${formatUsd(figures.savingPerCallUsd)} per call`;
  if (figures.breakEvenCalls === null) return `${head}: never pays off`;
  return `${head}: pays off after ${figures.breakEvenCalls} call${figures.breakEvenCalls === 1 ? '' : 's'}`;
}
