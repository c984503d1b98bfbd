// Builds ladder state for tier tests: policy analysed, nothing planned yet.
import { initialPlan, type LadderState } from '../../../../src/engine/ladder/state';
import type { Context } from '../../../../src/engine/model';
import { resolveOptions, targetTokensOf, type EngineOptionsInput } from '../../../../src/engine/options';
import { analyzePolicy } from '../../../../src/engine/policy/preserve';
import { charEstimateTokenizer } from '../../../../src/engine/tokens/tokenizer';

export function ladderState(context: Context, input: EngineOptionsInput = {}): LadderState {
  const options = resolveOptions({ preserve: { recentTurns: 1, recentPercent: 0 }, trigger: 'manual', ...input });
  const policy = analyzePolicy(context, options);
  return {
    context,
    options,
    policy,
    planned: initialPlan(context, policy),
    tokenizer: charEstimateTokenizer,
    targetTokens: targetTokensOf(options, context.windowTokens),
    runAllTiers: options.trigger === 'manual',
    totalTokens: context.items.reduce((sum, item) => sum + item.tokens, 0),
  };
}
