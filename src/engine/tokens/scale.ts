// Our tokenizer is not the provider's, and per-message framing tokens are invisible to it. When the
// provider reported the exact total (API usage), item counts are scaled so they sum to it exactly:
// the gauge then shows the true fill and the regions still show relative sizes.

export interface ScaledCounts {
  counts: number[];
  /** Factor applied (1 when no exact total was given or nothing was counted). */
  scale: number;
}

/**
 * Scales `raw` so the result sums to `total`, distributing rounding by largest remainder so the sum
 * is exact and no item moves by more than one token from its proportional share.
 */
export function scaleToTotal(raw: readonly number[], total: number | undefined): ScaledCounts {
  const rawSum = raw.reduce((sum, value) => sum + value, 0);
  if (total === undefined || rawSum === 0 || total < 0) return { counts: [...raw], scale: 1 };
  const scale = total / rawSum;
  const counts = raw.map((value) => Math.floor(value * scale));
  let missing = total - counts.reduce((sum, value) => sum + value, 0);
  if (missing > 0) {
    const order = raw
      .map((value, index) => ({ index, remainder: value * scale - Math.floor(value * scale) }))
      .sort((a, b) => b.remainder - a.remainder || a.index - b.index);
    for (const { index } of order) {
      if (missing === 0) break;
      counts[index] = (counts[index] ?? 0) + 1;
      missing -= 1;
    }
  }
  return { counts, scale };
}

/** Scaled size of new text the engine writes, consistent with the context's existing items. */
export function scaledCount(rawTokens: number, scale: number): number {
  return rawTokens === 0 ? 0 : Math.max(1, Math.round(rawTokens * scale));
}
