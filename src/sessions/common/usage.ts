// What a call's prompt held, from the usage any agent reports: uncached input, input written to the
// cache and input read from it together are the context at that call.
import type { UsageBreakdown } from '../types';

export function promptTokensOf(usage: UsageBreakdown): number {
  return usage.inputTokens + usage.cacheCreationInputTokens + usage.cacheReadInputTokens;
}
