// Number formatting shared by the host (status bar) and the webview, so both say the same thing.

/** 124310 → "124k", 1_000_000 → "1M", 950 → "950". */
export function formatTokens(tokens: number): string {
  if (tokens >= 1_000_000) return `${trimZero((tokens / 1_000_000).toFixed(tokens % 1_000_000 === 0 ? 0 : 2))}M`;
  if (tokens >= 1_000) return `${Math.round(tokens / 1_000)}k`;
  return String(Math.round(tokens));
}

export function percentOf(part: number, whole: number): number {
  return whole > 0 ? (part / whole) * 100 : 0;
}

function trimZero(text: string): string {
  return text.includes('.') ? text.replace(/\.?0+$/, '') : text;
}
