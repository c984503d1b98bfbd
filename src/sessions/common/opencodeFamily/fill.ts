// Exact context fill from OpenCode's own counts: the last model call of the live history reported
// what it was sent (`tokens.input` + `cache.read` + `cache.write`, OpenCode's `input` excluding the
// cached part) and what it answered (`output`, which joins the next request). What was written after
// that call (its tool results, a new prompt) is estimated. Right after a compaction the summary's
// call counted the old history, so until the next call the fill is an estimate of the new one.
import { charEstimateTokenizer } from '../../../engine';
import type { ApiMessage, FillSnapshot } from '../../types';
import type { BuiltMessages } from './messages';
import type { OpencodeWindow } from './window';

export interface OpencodeFillOptions {
  /** Context window override in tokens (the window setting); 0 = the model's. */
  windowOverride?: number;
  window: OpencodeWindow;
  model: string | null;
}

const estimate = (messages: readonly ApiMessage[]): number =>
  messages.reduce((total, message) => total + charEstimateTokenizer.count(JSON.stringify(message.content)), 0);

export function fillOf(
  built: BuiltMessages,
  refOf: (messageIndex: number) => string | null,
  compactedAfterLastCall: boolean,
  options: OpencodeFillOptions,
): FillSnapshot {
  const override = options.windowOverride !== undefined && options.windowOverride > 0 ? options.windowOverride : null;
  const last = built.calls[built.calls.length - 1];
  const base = {
    windowTokens: override ?? options.window.windowTokens,
    windowSource: override !== null ? ('override' as const) : options.window.known ? ('model' as const) : ('default' as const),
    agentAutoCompactTokens: options.window.autoCompactTokens,
    model: last?.model ?? options.model,
  };
  if (last === undefined || compactedAfterLastCall) {
    return {
      ...base,
      usedTokens: 0,
      source: 'estimate',
      timestamp: last?.at ?? null,
      outputTokensPending: 0,
      pendingTokens: estimate(built.messages),
      usage: null,
      accountedThrough: { uuid: null, endOffset: 0 },
      compactedSinceUsage: last !== undefined,
    };
  }
  const { usage } = last;
  return {
    ...base,
    usedTokens: usage.inputTokens + usage.cacheReadInputTokens + usage.cacheCreationInputTokens,
    source: 'usage',
    timestamp: last.at,
    outputTokensPending: usage.outputTokens,
    pendingTokens: estimate(built.messages.slice(last.to + 1)),
    usage,
    accountedThrough: { uuid: refOf(last.to), endOffset: 0 },
    compactedSinceUsage: false,
  };
}
