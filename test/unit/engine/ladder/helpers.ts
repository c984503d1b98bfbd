// Builds ladder state for tier tests: policy analysed, nothing planned yet, a small recent window.
import type { LadderState } from '../../../../src/engine/ladder/state';
import type { Context } from '../../../../src/engine/model';
import { resolveOptions, type EngineOptionsInput } from '../../../../src/engine/options';
import { ladderState as stateOf } from '../../../../src/engine/plan';
import { charEstimateTokenizer } from '../../../../src/engine/tokens/tokenizer';

export function ladderState(context: Context, input: EngineOptionsInput = {}): LadderState {
  return stateOf(context, resolveOptions({ preserve: { recentTurns: 1, recentPercent: 0 }, trigger: 'manual', ...input }), charEstimateTokenizer);
}
