// What one API call cost, from the usage the provider reported for it: uncached input, input written
// to the cache (5 minutes or 1 hour), input read from it, and output, each at its rate. A call whose
// prompt exceeds the model's long-context threshold is billed whole at the long-context rates.
import { findModel, periodAt, type PriceIndex, type PricePeriod } from './prices';

/** A call's token counts (the prompt is the first three together). */
export interface CallUsage {
  inputTokens: number;
  /** All input written to the cache; `cacheWrite1hTokens` of it with a 1-hour lifetime. */
  cacheCreationInputTokens: number;
  cacheReadInputTokens: number;
  outputTokens: number;
  cacheWrite1hTokens?: number;
}

export interface PricedCallInput {
  usage: CallUsage;
  model: string | null;
  at: string | null;
  /** Calls summed into this usage (all priced alike); 1 when absent. */
  count?: number;
}

/** US dollars per token for each part of one call. */
export interface CallRates {
  input: number;
  cacheWrite: number;
  cacheWrite1h: number;
  cacheRead: number;
  output: number;
  longContext: boolean;
}

/** One call's cost in US dollars, part by part. */
export interface CallCost {
  input: number;
  cacheWrite: number;
  cacheRead: number;
  output: number;
  /** The prompt's cost: input + cacheWrite + cacheRead. */
  prompt: number;
  usd: number;
  longContext: boolean;
}

const PER_TOKEN = 1 / 1_000_000;

export function promptOf(usage: CallUsage): number {
  return usage.inputTokens + usage.cacheCreationInputTokens + usage.cacheReadInputTokens;
}

/**
 * The rates of a call with `promptTokens` under `period`. A provider that does not charge cache
 * writes separately (OpenAI, Google) bills them as input; one without a cache-read price, as input.
 */
export function ratesOf(period: PricePeriod, promptTokens: number): CallRates {
  const long = period.longContext !== undefined && promptTokens > period.longContext.aboveTokens ? period.longContext : undefined;
  const input = long?.input ?? period.input;
  const cacheWrite = long?.cacheWrite ?? period.cacheWrite ?? input;
  return {
    input: input * PER_TOKEN,
    cacheWrite: cacheWrite * PER_TOKEN,
    cacheWrite1h: (long?.cacheWrite1h ?? period.cacheWrite1h ?? cacheWrite) * PER_TOKEN,
    cacheRead: (long?.cacheRead ?? period.cacheRead ?? input) * PER_TOKEN,
    output: (long?.output ?? period.output) * PER_TOKEN,
    longContext: long !== undefined,
  };
}

/** The rates `call` paid, or null when its model has no price. */
export function callRates(index: PriceIndex, call: PricedCallInput): CallRates | null {
  const entry = call.model === null ? null : findModel(index, call.model);
  // Summed calls were each below any long-context tier: their mean prompt says so.
  return entry === null ? null : ratesOf(periodAt(entry, call.at), promptOf(call.usage) / (call.count ?? 1));
}

export function costWithRates(usage: CallUsage, rates: CallRates): CallCost {
  const hour = Math.min(usage.cacheWrite1hTokens ?? 0, usage.cacheCreationInputTokens);
  const input = usage.inputTokens * rates.input;
  const cacheWrite = (usage.cacheCreationInputTokens - hour) * rates.cacheWrite + hour * rates.cacheWrite1h;
  const cacheRead = usage.cacheReadInputTokens * rates.cacheRead;
  const output = usage.outputTokens * rates.output;
  const prompt = input + cacheWrite + cacheRead;
  return { input, cacheWrite, cacheRead, output, prompt, usd: prompt + output, longContext: rates.longContext };
}

/** The call's cost, or null when its model has no price. */
export function costOfCall(index: PriceIndex, call: PricedCallInput): CallCost | null {
  const rates = callRates(index, call);
  return rates === null ? null : costWithRates(call.usage, rates);
}
