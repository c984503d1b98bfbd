// The session's cost in words, the same in the panel (next to the gauge) and the status bar tooltip.
import { formatUsd } from './format';
import type { CostView } from './messages';
import { plural } from '../base/format';

/** Some call has a price: dollar figures mean something (else they would all read $0.00). */
export function isPriced(cost: CostView): boolean {
  return cost.sessionUsd > 0 || cost.unpriced.length === 0;
}

/**
 * "$4.12 so far · 37 calls in the session (2 subagents $0.80)"; the calls alone when none has a price
 * (`unpricedText` says why). "in the session": every call paid for, where the timeline counts those
 * the current context grew from.
 */
export function sessionCostText(cost: CostView): string {
  const subagentUsd = cost.subagents.reduce((sum, agent) => sum + agent.usd, 0);
  const subagents = cost.subagents.length > 0 ? ` (${plural(cost.subagents.length, 'subagent')} ${formatUsd(subagentUsd)})` : '';
  return `${isPriced(cost) ? `${formatUsd(cost.sessionUsd)} so far · ` : ''}${plural(cost.calls, 'call')} in the session${subagents}`;
}

/** "no price for claude-x, claude-y: tokens only for their calls", or null when every model has one. */
export function unpricedText(cost: CostView): string | null {
  return cost.unpriced.length === 0
    ? null
    : `no price for ${cost.unpriced.join(', ')}: tokens only for ${cost.unpriced.length === 1 ? 'its' : 'their'} calls (set contextLens.cost.prices)`;
}

/** "prices: @pydantic/genai-prices 0.1.8, taken 2026-11-25" */
export function pricesText(cost: CostView): string {
  return `prices: ${cost.prices.source}, taken ${cost.prices.taken}`;
}
