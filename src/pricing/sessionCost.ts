// A session's cost: its calls summed, model by model. Calls of a model the table does not price are
// counted in tokens only and named, so a total never silently leaves them out.
import { costOfCall, type CallCost, type PricedCallInput } from './callCost';
import type { PriceIndex } from './prices';

export interface ModelCost {
  model: string;
  calls: number;
  inputTokens: number;
  cacheWriteTokens: number;
  cacheReadTokens: number;
  outputTokens: number;
  /** null: no price for this model. */
  usd: number | null;
}

export interface SessionCost {
  /** Of the priced calls; `unpriced` says what it leaves out. */
  usd: number;
  /** What the prompts cost (input, cache writes and reads): what carrying the context costs. */
  promptUsd: number;
  outputUsd: number;
  calls: number;
  byModel: ModelCost[];
  /** Models with no price ("no price for <model>"), with their calls. */
  unpriced: { model: string; calls: number }[];
}

/** Each call's cost (null: no price), in the calls' order, and their sum. */
export function sessionCost(index: PriceIndex, calls: readonly PricedCallInput[]): { total: SessionCost; perCall: (CallCost | null)[] } {
  const byModel = new Map<string, ModelCost>();
  const perCall: (CallCost | null)[] = [];
  let usd = 0;
  let promptUsd = 0;
  let outputUsd = 0;
  for (const call of calls) {
    const cost = costOfCall(index, call);
    perCall.push(cost);
    const model = call.model ?? 'unknown model';
    const row = byModel.get(model) ?? {
      model,
      calls: 0,
      inputTokens: 0,
      cacheWriteTokens: 0,
      cacheReadTokens: 0,
      outputTokens: 0,
      usd: cost === null ? null : 0,
    };
    row.calls += call.count ?? 1;
    row.inputTokens += call.usage.inputTokens;
    row.cacheWriteTokens += call.usage.cacheCreationInputTokens;
    row.cacheReadTokens += call.usage.cacheReadInputTokens;
    row.outputTokens += call.usage.outputTokens;
    if (cost !== null) {
      row.usd = (row.usd ?? 0) + cost.usd;
      usd += cost.usd;
      promptUsd += cost.prompt;
      outputUsd += cost.output;
    }
    byModel.set(model, row);
  }
  const rows = [...byModel.values()].sort((a, b) => (b.usd ?? -1) - (a.usd ?? -1));
  const unpriced = rows.filter((row) => row.usd === null).map(({ model, calls: count }) => ({ model, calls: count }));
  return { total: { usd, promptUsd, outputUsd, calls: rows.reduce((sum, row) => sum + row.calls, 0), byModel: rows, unpriced }, perCall };
}
