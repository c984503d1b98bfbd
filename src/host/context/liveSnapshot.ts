// One read of the followed session, turned into what the panel derives everything from. Free of
// `vscode`: the ContextModel decides when to build one, this decides how.
import { contextFromMessages, defaultTokenizer, plan, type CompactionPlan, type Context, type EngineOptionsInput, type Tokenizer } from '../../engine';
import { readLiveContext } from '../../sessions/claude-code';
import type { LiveContext, Result, SessionInfo } from '../../sessions/types';
import { breakdownOf, reservedOutputTokensOf } from './derive';
import type { Breakdown } from '../../protocol/messages';
import type { WorkerTokenizer } from './workerTokenizer';

export interface LiveSnapshot {
  readonly live: LiveContext;
  readonly context: Context;
  readonly breakdown: Breakdown;
  readonly reservedOutputTokens: number;
}

/**
 * `engineContextOf` (sessions/claude-code/engineContext.ts) with a tokenizer of our choosing: the
 * host counts on a worker thread, which the adapter's version does not allow for yet.
 */
export function engineContextWith(live: LiveContext, tokenizer: Tokenizer): Context {
  const sourceRefs: string[][] = [];
  const summaryMessageIndexes: number[] = [];
  for (const entry of live.entries) {
    sourceRefs[entry.messageIndex] = entry.uuids;
    if (entry.kind === 'compact-summary') summaryMessageIndexes.push(entry.messageIndex);
  }
  return contextFromMessages({
    ...(live.system ? { system: live.system } : {}),
    ...(live.tools ? { tools: live.tools } : {}),
    messages: live.messages,
    ...(live.fill.usedTokens > 0 ? { usedTokens: live.fill.usedTokens } : {}),
    windowTokens: live.fill.windowTokens,
    sourceRefs,
    summaryMessageIndexes,
    tokenizer,
  });
}

/**
 * Reads the live context and counts it. With a worker tokenizer the first pass only estimates and
 * collects unknown texts; they are counted off-thread and the context is built again from the
 * exact counts (a pass without tokenizing is cheap next to counting).
 */
export async function readSnapshot(session: SessionInfo, windowOverride: number, tokenizer: WorkerTokenizer | null): Promise<Result<LiveSnapshot>> {
  const read = await readLiveContext(session.path, { session, windowOverride });
  if (!read.ok) return read;
  const live = read.value;
  let context = engineContextWith(live, tokenizer ?? defaultTokenizer());
  if (tokenizer?.hasMissing) {
    await tokenizer.fetchMissing();
    context = engineContextWith(live, tokenizer);
  }
  return { ok: true, value: { live, context, breakdown: breakdownOf(context), reservedOutputTokens: reservedOutputTokensOf(live.fill) } };
}

/** The live plan at the configured target (no LLM, no I/O). */
export function livePlan(snapshot: LiveSnapshot, options: EngineOptionsInput, tokenizer: Tokenizer | undefined): CompactionPlan {
  return plan(snapshot.context, options, tokenizer ? { tokenizer } : {});
}
