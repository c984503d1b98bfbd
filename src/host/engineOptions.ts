// Settings → engine options. Free of `vscode` so the mapping is unit-tested: with every setting at
// its default, the engine must resolve to exactly its own DEFAULT_OPTIONS.
import { TOOL_CATEGORIES, type EngineOptionsInput, type TruncatePolicy, type ToolCategory } from '../engine';
import type { SettingValues } from './settingDefaults';

export function engineOptionsOf(values: SettingValues, targetPercent: number): EngineOptionsInput {
  const perCategory = Object.fromEntries(
    TOOL_CATEGORIES.map((category): [ToolCategory, TruncatePolicy] => [
      category,
      { mode: values[`truncate.mode.${category}`], capTokens: values[`truncate.capTokens.${category}`] },
    ]),
  ) as Record<ToolCategory, TruncatePolicy>;
  return {
    targetPercent,
    hardLimitTokens: values['compaction.hardLimitTokens'],
    minSavingsPercent: values['compaction.minSavingsPercent'],
    timeoutMs: Math.round(values['summarizer.timeoutSeconds'] * 1000),
    preserve: {
      recentTurns: values['preserve.recentTurns'],
      recentPercent: values['preserve.recentPercent'],
      pinned: values['preserve.pinnedConstraints'].filter((text) => text.trim() !== ''),
      extractPinned: values['preserve.extractPinned'],
      taskComplexity: values['preserve.taskComplexity'],
      epistemicThreshold: values['preserve.epistemicThreshold'],
      epistemicBudgetPercent: values['preserve.epistemicBudgetPercent'],
      pinnedItemMaxTokens: values['preserve.pinnedItemMaxTokens'],
      promptBudgetPercent: values['preserve.promptBudgetPercent'],
    },
    supersede: {
      enabled: values['supersede.enabled'],
      allowedCategories: values['supersede.allowedCategories'],
      deniedCategories: values['supersede.deniedCategories'],
      preserveLastNResults: values['supersede.preserveLastNResults'],
      stubTemplate: values['supersede.stubTemplate'],
      redactIdentifiers: values['supersede.redactIdentifiers'],
      writesSupersedeReads: values['supersede.writesSupersedeReads'],
    },
    ageClear: {
      enabled: values['ageClear.enabled'],
      keepLastToolUses: values['ageClear.keepLastToolUses'],
      excludeTools: values['ageClear.excludeTools'],
      clearAtLeastTokens: values['ageClear.clearAtLeastTokens'],
      placeholder: values['ageClear.placeholder'],
    },
    truncate: { enabled: values['truncate.enabled'], dedupe: values['truncate.dedupe'], perCategory },
    summary: {
      enabled: values['summary.enabled'],
      iterative: values['summary.iterative'],
      maxTokens: values['summary.maxTokens'],
      pruneToolResultsBeforeSummary: values['summary.pruneToolResults'],
      maxToolResultTokensInPrompt: values['summary.maxToolResultTokensInPrompt'],
      antiInjectionPrefix: values['summary.framePrefix'],
    },
  };
}
