// Tier 2: clear old tool results by age (Anthropic's context editing / Claude Code's microcompact).
// Results older than the last N tool uses are replaced by Claude Code's placeholder followed by what
// the output was (tool, path or command, lines, size) and its archive ref. Clearing rewrites the
// middle of the prompt and so invalidates the provider's prompt cache from that point on: unless it
// frees at least `clearAtLeastTokens`, it costs more than it saves and is skipped.
import { isOpen, replace, targetMet, type LadderState, type PlannedItem, type TierReport } from './state';
import { callOf, countStub, describeOutput } from './stubText';
import { thousands } from '../../base/format';

export function runAgeClear(state: LadderState): TierReport {
  const report: TierReport = { tier: 'age-clear', acted: 0, tokensSaved: 0 };
  const options = state.options.ageClear;
  const results = state.planned.filter((planned) => planned.item.kind === 'tool_result');
  const aged = results.slice(0, Math.max(0, results.length - options.keepLastToolUses));
  const excluded = new Set(options.excludeTools);
  // Each cleared output says what it was and where the archive keeps it (see stubText.ts).
  const stubs = new Map<PlannedItem, { text: string; tokens: number }>();
  for (const planned of aged) {
    if (!isOpen(planned) || excluded.has(planned.item.toolName ?? '')) continue;
    const text = `${options.placeholder} ${describeOutput(planned.item, callOf(state, planned.item))}`;
    const tokens = countStub(state, text);
    if (tokens < planned.tokensAfter) stubs.set(planned, { text, tokens });
  }
  const clearable = [...stubs].reduce((sum, [planned, stub]) => sum + planned.tokensAfter - stub.tokens, 0);
  if (clearable < options.clearAtLeastTokens) {
    report.note = `skipped: would clear only ${thousands(clearable)} tokens (< ${thousands(options.clearAtLeastTokens)})`;
    return report;
  }
  for (const [planned, stub] of stubs) {
    if (targetMet(state)) break;
    report.tokensSaved += replace(state, planned, {
      fate: 'compacted',
      reason: `cleared by age (older than the last ${options.keepLastToolUses} tool uses)`,
      tier: 'age-clear',
      text: stub.text,
      tokensAfter: stub.tokens,
    });
    report.acted += 1;
  }
  return report;
}
