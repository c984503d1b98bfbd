// Tier 2: clear old tool results by age (Anthropic's context editing / Claude Code's microcompact).
// Results older than the last N tool uses are replaced by a fixed placeholder. Clearing rewrites the
// middle of the prompt and so invalidates the provider's prompt cache from that point on: unless it
// frees at least `clearAtLeastTokens`, it costs more than it saves and is skipped.
import { isOpen, replace, targetMet, countNew, type LadderState, type PlannedItem, type TierReport } from './state';
import { thousands } from '../thousands';

export function runAgeClear(state: LadderState): TierReport {
  const report: TierReport = { tier: 'age-clear', acted: 0, tokensSaved: 0 };
  const options = state.options.ageClear;
  const results = state.planned.filter((planned) => planned.item.kind === 'tool_result');
  const aged = results.slice(0, Math.max(0, results.length - options.keepLastToolUses));
  const excluded = new Set(options.excludeTools);
  const placeholderTokens = countNew(state, options.placeholder);
  const candidates: PlannedItem[] = aged.filter(
    (planned) => isOpen(planned) && !excluded.has(planned.item.toolName ?? '') && planned.tokensAfter > placeholderTokens,
  );
  const clearable = candidates.reduce((sum, planned) => sum + planned.tokensAfter - placeholderTokens, 0);
  if (clearable < options.clearAtLeastTokens) {
    report.note = `skipped: would clear only ${thousands(clearable)} tokens (< ${thousands(options.clearAtLeastTokens)})`;
    return report;
  }
  for (const planned of candidates) {
    if (targetMet(state)) break;
    report.tokensSaved += replace(state, planned, {
      fate: 'compacted',
      reason: `cleared by age (older than the last ${options.keepLastToolUses} tool uses)`,
      tier: 'age-clear',
      text: options.placeholder,
      tokensAfter: placeholderTokens,
    });
    report.acted += 1;
  }
  return report;
}
