// The prices that ship: the primary table (priceTable.ts, pydantic's genai-prices: Anthropic, OpenAI,
// Google) and, for the models it does not price, the broader second source (broadPriceTable.ts,
// models.dev: GLM, DeepSeek, Kimi, Qwen, which people run through Claude Code's third-party
// endpoints). The primary wins wherever both price a model; each source is named with its date.
import { BROAD_PRICES } from './broadPriceTable';
import { PRIMARY_PRICES } from './priceTable';
import { findModel, indexPrices, type PriceTable } from './prices';

/**
 * `primary` with the models of `broader` it does not find added after its own (so its names win a
 * lookup). Named as it is shown, "prices: <source>, taken <taken>": "genai-prices 0.1.8, taken
 * 2026-11-25; models.dev (…) for other models, taken 2026-11-27".
 */
export function withBroaderSource(primary: PriceTable, broader: PriceTable): PriceTable {
  const index = indexPrices(primary);
  const added = broader.models.filter((entry) => [entry.model, ...(entry.aliases ?? [])].every((name) => findModel(index, name) === null));
  if (added.length === 0) return primary;
  return {
    source: `${primary.source}, taken ${primary.taken}; ${broader.source} for other models`,
    taken: broader.taken,
    models: [...primary.models, ...added],
  };
}

export const BUNDLED_PRICES: PriceTable = withBroaderSource(PRIMARY_PRICES, BROAD_PRICES);
