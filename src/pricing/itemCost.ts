// What carrying each item has cost so far. Every call sent every item written before its response,
// and paid for that prompt in three parts the API's prefix cache lays out in order: the start it had
// cached (read at the cache-read price), then what it wrote to the cache (the tokens new since the
// cache was last written), then uncached input. Items are laid along each prompt by their size, so
// an item pays, for every call it was part of, the price of the part of the prompt it sat in. The
// shares add up to each call's prompt cost exactly: the items' costs plus what fell on no item (a
// prompt with nothing sized in it) are the prompts' cost.
import { costWithRates, promptOf, type CallCost, type CallRates, type PricedCallInput } from './callCost';
import { lowerBound } from '../base/search';

export interface CostedItem {
  /** -1 for the system prompt and tool definitions: in every prompt. */
  messageIndex: number;
  tokens: number;
  /** Tokens the API stopped counting later: the item was that much bigger in the calls before. */
  apiDropped?: number;
}

/** A call on the live chain: its response starts at message `from`, so its prompt held every message before. */
export interface LiveCallInput extends PricedCallInput {
  from: number;
}

export interface ItemCosts {
  /** US dollars per item, in the items' order. */
  usd: number[];
  /** Prompt cost of calls with nothing sized in them (the items' shares leave it out). */
  unassigned: number;
  /** Sum of the priced calls' prompt costs: `usd` summed plus `unassigned`. */
  promptUsd: number;
}

/**
 * `rates[k]` are the rates call k paid (null: its model has no price, and it adds nothing). Items
 * must be in prompt order (message index not decreasing), as the engine's context has them.
 * Runs in O((calls + items) · log items): each call touches two items directly and marks a range.
 */
export function itemCosts(items: readonly CostedItem[], calls: readonly LiveCallInput[], rates: readonly (CallRates | null)[]): ItemCosts {
  const weights = items.map((item) => Math.max(0, item.tokens + (item.apiDropped ?? 0)));
  const starts = [0];
  for (const weight of weights) starts.push((starts.at(-1) as number) + weight);
  const direct = items.map(() => 0);
  // Per-weight-unit price added over item ranges, as a difference array.
  const perUnit = new Array<number>(items.length + 1).fill(0);
  let unassigned = 0;
  let promptUsd = 0;

  /** The last of the first `count` items starting at or before position `at` (`strictly`: before it). */
  const itemAt = (at: number, count: number, strictly: boolean): number => {
    let low = 0;
    let high = count - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      const start = starts[middle] as number;
      if (strictly ? start < at : start <= at) low = middle;
      else high = middle - 1;
    }
    return low;
  };

  /** Adds `price` per weight unit over positions [lo, hi) of the first `count` items. */
  const charge = (lo: number, hi: number, price: number, count: number): void => {
    if (hi <= lo || price === 0) return;
    const first = itemAt(lo, count, false);
    const last = itemAt(hi, count, true);
    if (first >= last) {
      direct[first] = (direct[first] as number) + (hi - lo) * price;
      return;
    }
    direct[first] = (direct[first] as number) + ((starts[first + 1] as number) - lo) * price;
    direct[last] = (direct[last] as number) + (hi - (starts[last] as number)) * price;
    perUnit[first + 1] = (perUnit[first + 1] as number) + price;
    perUnit[last] = (perUnit[last] as number) - price;
  };

  calls.forEach((call, k) => {
    const callRates = rates[k];
    if (callRates === null || callRates === undefined) return;
    const cost: CallCost = costWithRates(call.usage, callRates);
    promptUsd += cost.prompt;
    const count = promptItems(items, call.from);
    const total = starts[count] as number;
    const prompt = promptOf(call.usage);
    if (count === 0 || total <= 0 || prompt <= 0) {
      unassigned += cost.prompt;
      return;
    }
    // Token positions of the three parts, in weight units of the items in this prompt.
    const scale = total / prompt;
    const read = call.usage.cacheReadInputTokens * scale;
    const written = read + call.usage.cacheCreationInputTokens * scale;
    const perToken = 1 / scale;
    charge(0, read, callRates.cacheRead * perToken, count);
    const writeRate = call.usage.cacheCreationInputTokens > 0 ? cost.cacheWrite / call.usage.cacheCreationInputTokens : 0;
    charge(read, written, writeRate * perToken, count);
    charge(written, total, callRates.input * perToken, count);
  });

  let running = 0;
  const usd = items.map((_, index) => {
    running += perUnit[index] as number;
    // The running sum of added and taken-back prices leaves float dust (-1.8e-20 on a recorded
    // session) where a range ended: an item never costs less than nothing.
    return Math.max(0, (direct[index] as number) + running * (weights[index] as number));
  });
  return { usd, unassigned, promptUsd };
}

/** How many items (from the start) a prompt ending before message `from` holds. */
function promptItems(items: readonly CostedItem[], from: number): number {
  return lowerBound(items, (item) => item.messageIndex < from);
}
