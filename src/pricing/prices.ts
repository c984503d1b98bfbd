// What a model's tokens cost: the bundled table (priceTable.ts, generated from a public price list),
// a person's own additions and overrides merged over it, and the rule that finds a model's entry
// from the many names one model is reported under (dated, region- or provider-prefixed, `[1m]`).
import type { Result } from '../base/result';

/** US dollars per million tokens. `cacheWrite` is the 5-minute write; `cacheWrite1h` the 1-hour one where it differs. */
export interface TokenPrices {
  input: number;
  output: number;
  cacheWrite?: number;
  cacheWrite1h?: number;
  cacheRead?: number;
}

/** Prices from a date on; `longContext`: the rates of a whole call whose prompt exceeds `aboveTokens`. */
export interface PricePeriod extends TokenPrices {
  /** First day (YYYY-MM-DD) these prices apply; absent: since the model came out. */
  from?: string;
  longContext?: Partial<TokenPrices> & { aboveTokens: number };
}

export interface ModelPrices {
  model: string;
  provider?: string;
  /** Other names of exactly this model. */
  aliases?: string[];
  /** Names this model's variants begin with (`claude-opus-4-5` for `claude-opus-4-5-20251101`). */
  prefixes?: string[];
  /** Oldest first. */
  periods: PricePeriod[];
}

export interface PriceTable {
  /** Where the figures come from and when they were taken: said wherever a cost is shown. */
  source: string;
  taken: string;
  models: ModelPrices[];
}

/** A person's own prices: model name → prices (a bare period, or periods). Merged over the bundled table. */
export type PriceOverrides = Record<string, TokenPrices & { longContext?: PricePeriod['longContext'] }>;

/** The table with `overrides` replacing or adding whole models (an override is taken as valid from any date). */
export function mergePrices(table: PriceTable, overrides: PriceOverrides): PriceTable {
  const replaced = new Set(Object.keys(overrides).map(canonicalName));
  const kept = table.models.filter((entry) => !replaced.has(canonicalName(entry.model)));
  const added = Object.entries(overrides).map(([model, prices]): ModelPrices => ({ model, periods: [prices] }));
  return { ...table, source: added.length > 0 ? `${table.source} + ${added.length} of your own` : table.source, models: [...added, ...kept] };
}

/** Checks parsed JSON as `PriceOverrides`: every model needs finite, non-negative input and output prices. */
export function parsePriceOverrides(value: unknown): Result<PriceOverrides> {
  const err = (error: string) => ({ ok: false as const, error });
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    return err('prices must be an object of model name → { input, output, cacheWrite?, cacheWrite1h?, cacheRead? } (US dollars per million tokens)');
  for (const [model, prices] of Object.entries(value as Record<string, unknown>)) {
    const fields = prices as Record<string, unknown> | null;
    if (fields === null || typeof fields !== 'object') return err(`prices of ${model}: not an object`);
    for (const name of ['input', 'output', 'cacheWrite', 'cacheWrite1h', 'cacheRead'] as const) {
      const price = fields[name];
      const required = name === 'input' || name === 'output';
      if ((required || price !== undefined) && !(typeof price === 'number' && Number.isFinite(price) && price >= 0))
        return err(`prices of ${model}: ${name} must be a number ≥ 0 (US dollars per million tokens)`);
    }
  }
  return { ok: true, value: value as PriceOverrides };
}

/** `table` indexed with a person's overrides (parsed JSON: a file's, a setting's) merged over it, or why they are refused. */
export function indexWithOverrides(table: PriceTable, value: unknown): Result<PriceIndex> {
  const overrides = parsePriceOverrides(value);
  return overrides.ok ? { ok: true, value: indexPrices(mergePrices(table, overrides.value)) } : overrides;
}

/**
 * A reported model name without what varies around the same model: a provider or region prefix
 * (`anthropic/`, `us.anthropic.`, `converse/jp.anthropic.`), a context suffix (`[1m]`), a Bedrock
 * version (`-v1:0`), a Vertex date separator (`@`). Lower case.
 */
export function canonicalName(name: string): string {
  let model = name
    .trim()
    .toLowerCase()
    .replace(/\[[^\]]*\]$/, '');
  model = model.slice(model.lastIndexOf('/') + 1);
  model = model.replace(/^(?:[a-z]{2,6}\.)?(?:anthropic|openai|google)\./, '');
  return model.replace(/-v\d+(?::\d+)?$/, '').replace('@', '-');
}

/** A date (`-20250929`, `-2025-08-07`) or a named variant (`-latest`, `-preview-06-05`): not another model. */
const VARIANT_SUFFIX = /^-(?:\d{8}|\d{4}-\d{2}-\d{2}|[a-z])/;

export interface PriceIndex {
  table: PriceTable;
  /** Names already looked up: a session names a handful of models over thousands of calls. */
  found: Map<string, ModelPrices | null>;
  exact: Map<string, ModelPrices>;
  /** Longest first, so `claude-opus-4-5` wins over `claude-opus-4`. */
  prefixes: [string, ModelPrices][];
}

export function indexPrices(table: PriceTable): PriceIndex {
  const exact = new Map<string, ModelPrices>();
  const prefixes: [string, ModelPrices][] = [];
  // Earlier entries win: overrides come first.
  for (const entry of table.models) {
    for (const name of [entry.model, ...(entry.aliases ?? [])]) if (!exact.has(canonicalName(name))) exact.set(canonicalName(name), entry);
    for (const name of [entry.model, ...(entry.prefixes ?? [])]) prefixes.push([canonicalName(name), entry]);
  }
  prefixes.sort((a, b) => b[0].length - a[0].length);
  return { table, found: new Map(), exact, prefixes };
}

/** The entry for a reported model name, or null (then only tokens are shown: "no price for <model>"). */
export function findModel(index: PriceIndex, name: string): ModelPrices | null {
  let entry = index.found.get(name);
  if (entry === undefined) {
    entry = lookUp(index, name);
    index.found.set(name, entry);
  }
  return entry;
}

/**
 * Bedrock's geographic cross-region profiles (`us.`, `eu.`, `jp.`, `apac.`, `au.`, … before
 * `anthropic.`) bill Claude models from the 4.5 generation on at 10 % over the global rate (AWS's
 * Bedrock price list; ccusage prices them so too). `global.` and the older models pay the list price.
 */
const GEO_PROFILE = /(?:^|\/)(?!global\.)[a-z]{2,4}(?:-gov)?\.anthropic\./;
const REGIONAL_PREMIUM_MODELS = /^claude-(?:opus|sonnet|haiku)-(?:4-[5-9]|[5-9])/;
const REGIONAL_PREMIUM = 1.1;

function lookUp(index: PriceIndex, name: string): ModelPrices | null {
  const found = lookUpCanonical(index, name);
  if (found === null || !GEO_PROFILE.test(name.toLowerCase()) || !REGIONAL_PREMIUM_MODELS.test(found.model)) return found;
  const scale = (prices: Partial<TokenPrices>): Partial<TokenPrices> =>
    Object.fromEntries(Object.entries(prices).map(([key, value]) => [key, typeof value === 'number' ? value * REGIONAL_PREMIUM : value]));
  return {
    ...found,
    periods: found.periods.map(
      (period) =>
        ({
          ...period,
          ...scale(period),
          ...(period.longContext ? { longContext: { ...period.longContext, ...scale(period.longContext), aboveTokens: period.longContext.aboveTokens } } : {}),
        }) as PricePeriod,
    ),
  };
}

function lookUpCanonical(index: PriceIndex, name: string): ModelPrices | null {
  const model = canonicalName(name);
  const found = index.exact.get(model) ?? index.exact.get(model.replace(/-(?:\d{8}|\d{4}-\d{2}-\d{2})$/, ''));
  if (found !== undefined) return found;
  // `claude-sonnet-4-5-thinking` is a variant of `claude-sonnet-4-5`; `claude-sonnet-5-5` is not one of `claude-sonnet-5`.
  for (const [prefix, entry] of index.prefixes)
    if (model.startsWith(prefix) && (model.length === prefix.length || VARIANT_SUFFIX.test(model.slice(prefix.length)))) return entry;
  return null;
}

/** The prices in force on `at` (an ISO timestamp; null: today's, the newest period). */
export function periodAt(entry: ModelPrices, at: string | null): PricePeriod {
  const day = at?.slice(0, 10) ?? null;
  let chosen = entry.periods[0] as PricePeriod;
  for (const period of entry.periods) if (period.from === undefined || day === null || period.from <= day) chosen = period;
  return chosen;
}
