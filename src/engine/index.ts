// Public surface of the compaction engine, its one door: code outside src/engine imports only this
// file (a lint rule, eslint.config.mjs). Pure TypeScript: no vscode, no agent formats, no I/O.
export type {
  AnthropicConversation,
  AnthropicMessage,
  Context,
  ContextItem,
  ItemCategory,
  ItemKind,
  MessageBlock,
  Role,
  ToolCategory,
  UsedSource,
} from './model';
export { categoryOf, TOOL_CATEGORIES, sumTokens } from './model';
export { contextFromMessages, hasMark, markBlock, markHarnessBlock, SUMMARY_TAG, toolResultText, withMeasuredTokens, type MessagesInput } from './fromMessages';
export {
  CLEARED_PLACEHOLDER,
  DEFAULT_ANTI_INJECTION_PREFIX,
  DEFAULT_OPTIONS,
  DEFAULT_STUB_TEMPLATE,
  resolveOptions,
  targetTokensOf,
  underBudgetPressure,
  type CompactionTrigger,
  type EngineOptions,
  type EngineOptionsInput,
  type TaskComplexity,
  type TruncateMode,
  type TruncatePolicy,
} from './options';
export { plan, type CompactionPlan, type PlanDeps } from './plan';
export { afterTexts, type AfterTexts } from './afterTexts';
export { compact, EDITED_SUMMARIZER, type CompactDeps, type CompactionHooks } from './compact';
export type { CompactionMetrics, CompactionResult, CompactionStatus, ItemFate, OverflowWarning, SummaryInfo, TierMetrics } from './result';
export type { Fate, TierName, TierReport } from './ladder/state';
export type { ToolPruner } from './ladder/truncate';
export { targetMissText, type TargetMiss } from './ladder/missed';
export { anthropicFormatter, type MessageFormatter, type OutputItem } from './output';
export { DEFAULT_TRIGGER_OPTIONS, TriggerController, type Fill, type TriggerDecision, type TriggerOptions, type TriggerState } from './triggers';
export type { Verification } from './verify';
export { DEFAULT_ARCHIVE_CAPS, MemoryArchive, newArchiveId, type Archive, type ArchiveCaps, type ArchiveEntry, type ArchiveRef } from './archive';
export { auditCompaction, droppedSentence, type AuditEntry, type AuditKind, type CompactionAudit } from './audit/compactionAudit';
export { redactSecrets, redactSecretsWithCounts, redactIdentifier } from './redact';
export { findEpistemicMarkers, type MarkerHit } from './policy/epistemic';
export { focusWordsIn } from './policy/focus';
export { tagBudget, type TagBudget } from './policy/classify';
export { buildPinnedSet, extractMarkedPins, extractPins, type ExtractedPins, type PinnedEntry, type PinnedSet } from './policy/pinned';
export { promptBudgetTokens, promptsWithinBudget } from './policy/prompts';
export { resolutionOf, trackState, type Resolution, type SaidItem } from './state/tracker';
export { diffSides, diffSlots } from './diff';
export { filePathOf } from './resource';
export type { ProtectionKind } from './policy/preserve';
export { categorizeTool } from './toolCategory';
export { NO_VOCABULARY, type ToolVocabulary } from './tools';
export { HeuristicSummarizer } from './summarizers/heuristic';
export { markdownSummaryBuilder, type SummaryBuilder, type SummarySections } from './summarizers/template';
export { errorText, type Summarizer, type SummarizerResult, type SummaryRequest } from './summarizers/types';
export { pinnableSummaryText } from './summarizers/foreignSummary';
export { charEstimateTokenizer, type Tokenizer } from './tokens/tokenizer';
export { LruCache } from './tokens/cache';
export { estimateTokenizer } from './tokens/estimate';
export { attribute, type MeasuredCall, type TokenBasis } from './tokens/attribute';
export { buildPinnedBlock, type PinnedBlock, type PinPurpose, type PinSettings, type PinSource } from './pinnedBlock';
