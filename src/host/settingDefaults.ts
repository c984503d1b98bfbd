// Defaults of the `contextLens.*` settings, kept free of `vscode` so a test can check them against
// package.json's contributes.configuration (the two must never drift apart). Engine knobs take their
// defaults from the engine itself, so a setting left alone behaves exactly like the CLI.
import { HOOK_SETTINGS } from '../contracts/hookEvents';
import { DEFAULT_ANTHROPIC_SUMMARY_MODEL } from '../summarizers/defaults';
import {
  DEFAULT_ARCHIVE_CAPS,
  DEFAULT_OPTIONS,
  DEFAULT_TRIGGER_OPTIONS,
  TOOL_CATEGORIES,
  type TaskComplexity,
  type ToolCategory,
  type TruncateMode,
} from '../engine';

export const SUMMARIZERS = ['heuristic', 'anthropic', 'claude-cli'] as const;
export type SummarizerName = (typeof SUMMARIZERS)[number];

const { preserve, supersede, ageClear, truncate, summary } = DEFAULT_OPTIONS;

type ModeKey = `truncate.mode.${ToolCategory}`;
type CapKey = `truncate.capTokens.${ToolCategory}`;
const truncatePolicies = Object.fromEntries(
  TOOL_CATEGORIES.flatMap((category) => [
    [`truncate.mode.${category}`, truncate.perCategory[category].mode],
    [`truncate.capTokens.${category}`, truncate.perCategory[category].capTokens],
  ]),
) as Record<ModeKey, TruncateMode> & Record<CapKey, number>;

export const SETTING_DEFAULTS = {
  'trigger.thresholdPercent': DEFAULT_TRIGGER_OPTIONS.thresholdPercent,
  'trigger.targetPercent': DEFAULT_OPTIONS.targetPercent,
  'trigger.safetyNetPercent': DEFAULT_TRIGGER_OPTIONS.safetyNetPercent,
  'trigger.notify': true,
  'window.overrideTokens': 0,
  'claudeCode.configDirs': [] as string[],
  /** Agent id → folders (or store) to look in instead of the agent's defaults. */
  sessionFolders: {} as Record<string, unknown>,
  'statusBar.enabled': true,
  'cost.showInStatusBar': true,
  /** `ctxlens inspect` / `sessions` in VS Code's terminals answered by the extension's resident reader. */
  'terminal.residentReader': true,
  /** Model name → US dollars per million tokens, merged over the bundled price table. */
  'cost.prices': {} as Record<string, unknown>,
  'compaction.minSavingsPercent': DEFAULT_OPTIONS.minSavingsPercent,
  'compaction.maxConsecutiveLowSavings': DEFAULT_TRIGGER_OPTIONS.maxConsecutiveLowSavings,
  'compaction.hardLimitTokens': DEFAULT_OPTIONS.hardLimitTokens,
  // The hooks read these three from the workspace's settings.json too: one spelling, the contract's.
  [HOOK_SETTINGS.focus]: '',
  'summarizer.provider': 'heuristic' as SummarizerName,
  'summarizer.anthropicModel': DEFAULT_ANTHROPIC_SUMMARY_MODEL,
  'summarizer.anthropicBaseUrl': '',
  'summarizer.claudeCliPath': '',
  'summarizer.timeoutSeconds': DEFAULT_OPTIONS.timeoutMs / 1000,
  'preserve.recentTurns': preserve.recentTurns,
  'preserve.recentPercent': preserve.recentPercent,
  [HOOK_SETTINGS.pinnedConstraints]: [...preserve.pinned],
  [HOOK_SETTINGS.extractPinned]: preserve.extractPinned,
  'preserve.pinnedItemMaxTokens': preserve.pinnedItemMaxTokens,
  [HOOK_SETTINGS.promptBudgetPercent]: preserve.promptBudgetPercent,
  'preserve.taskComplexity': preserve.taskComplexity as TaskComplexity,
  'preserve.epistemicThreshold': preserve.epistemicThreshold,
  'preserve.epistemicBudgetPercent': preserve.epistemicBudgetPercent,
  'supersede.enabled': supersede.enabled,
  'supersede.allowedCategories': [...supersede.allowedCategories],
  'supersede.deniedCategories': [...supersede.deniedCategories],
  'supersede.preserveLastNResults': supersede.preserveLastNResults,
  'supersede.writesSupersedeReads': supersede.writesSupersedeReads,
  'supersede.stubTemplate': supersede.stubTemplate,
  'supersede.redactIdentifiers': supersede.redactIdentifiers,
  'ageClear.enabled': ageClear.enabled,
  'ageClear.keepLastToolUses': ageClear.keepLastToolUses,
  'ageClear.excludeTools': [...ageClear.excludeTools],
  'ageClear.clearAtLeastTokens': ageClear.clearAtLeastTokens,
  'ageClear.placeholder': ageClear.placeholder,
  'truncate.enabled': truncate.enabled,
  'truncate.dedupe': truncate.dedupe,
  ...truncatePolicies,
  'summary.enabled': summary.enabled,
  'summary.iterative': summary.iterative,
  'summary.maxTokens': summary.maxTokens,
  'summary.pruneToolResults': summary.pruneToolResultsBeforeSummary,
  'summary.maxToolResultTokensInPrompt': summary.maxToolResultTokensInPrompt,
  'summary.framePrefix': summary.antiInjectionPrefix,
  'archive.maxMegabytes': DEFAULT_ARCHIVE_CAPS.maxMegabytes as number,
  'archive.maxAgeDays': DEFAULT_ARCHIVE_CAPS.maxAgeDays as number,
};

export type SettingKey = keyof typeof SETTING_DEFAULTS;
export type SettingValues = { readonly [K in SettingKey]: (typeof SETTING_DEFAULTS)[K] };
