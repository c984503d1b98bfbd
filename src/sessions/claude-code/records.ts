// Claude Code transcript records: the few fields Context Lens reads, and guards that check them.
// Transcripts are written by many CLI versions, so every field is optional and checked before use;
// a record that lacks what we need is skipped, never trusted.
import { plannedSizesOf, type ContentBlock, type PlannedSizes, type UsageBreakdown } from '../types';
import { num, obj, str } from '../common/fields';
import type { JsonRecord, LocatedJson } from '../common/jsonRecords';
import { promptTokensOf } from '../common/usage';

/** One JSON object from a transcript line, as parsed; only `type` is assumed to exist. */
export type RawRecord = JsonRecord;

/** A record together with where it was read. */
export type LocatedRecord = LocatedJson<RawRecord>;

/** Record types that take part in the `parentUuid` chain. */
const CHAIN_TYPES = new Set(['user', 'assistant', 'system', 'attachment', 'progress']);

/**
 * Types Claude Code is known to write (2.1.x). Anything else is counted as unknown so an upgrade
 * that adds record types shows up in diagnostics instead of silently changing what we read.
 */
export const KNOWN_TYPES = new Set([
  ...CHAIN_TYPES,
  'summary',
  'custom-title',
  'ai-title',
  'last-prompt',
  'file-history-snapshot',
  'file-history-delta',
  'queue-operation',
  'cost-state',
  'tools-used',
  'mode',
  'permission-mode',
  'content-replacement',
  'api-request-shape',
  'api-request-blob',
  'api-request',
  'tag',
  'agent-name',
  'agent-color',
  'agent-setting',
  'relocated',
  'pr-link',
  'worktree-state',
  'continued-in',
  'fork-context-ref',
  'frame-link',
  'ended-by-model',
  'attribution-snapshot',
  'bridge-session',
  'history-suppression',
  'isolation-latch',
  'dev-mods',
  'memory-mode',
  'atis-latch',
  'observer-ref',
  'artifact-comment-monitor',
  'artifact-autoreact-ledger',
]);

export { num, obj, str };

function recordType(record: RawRecord): string | null {
  return str(record.type);
}

export function uuidOf(record: RawRecord): string | null {
  return str(record.uuid);
}

export function parentOf(record: RawRecord): string | null {
  return str(record.parentUuid);
}

export function isChainRecord(record: RawRecord): boolean {
  return CHAIN_TYPES.has(recordType(record) ?? '') && uuidOf(record) !== null;
}

export function isSidechain(record: RawRecord): boolean {
  return record.isSidechain === true;
}

export function isCompactBoundary(record: RawRecord): boolean {
  return record.type === 'system' && record.subtype === 'compact_boundary';
}

/**
 * What Context Lens wrote into the boundary of a fork (see fork.ts): null on the agent's own
 * boundaries and on anything else.
 */
/** `compact_boundary.contextLens.writer` of the compactions Context Lens applied. */
export const CONTEXT_LENS_WRITER = 'context-lens';

export interface ContextLensMark {
  sourceSessionId: string | null;
  sourceTitle: string | null;
  /** The last record the fork wrote: `compactMetadata.postTokens` counts everything up to it. */
  lastUuid: string | null;
  /** The sizes the compaction planned the fork with (absent in forks written before they were kept). */
  planned?: PlannedSizes;
}

export function contextLensMark(record: RawRecord): ContextLensMark | null {
  const mark = obj(record.contextLens);
  if (!isCompactBoundary(record) || mark === null || mark.writer !== CONTEXT_LENS_WRITER) return null;
  const planned = plannedSizesOf(mark.planned);
  return { sourceSessionId: str(mark.sourceSessionId), sourceTitle: str(mark.sourceTitle), lastUuid: str(mark.lastUuid), ...(planned ? { planned } : {}) };
}

/** The `message` of a user/assistant record, when it is an object. */
export function messageOf(record: RawRecord): Record<string, unknown> | null {
  return obj(record.message);
}

/** Content of a message as blocks: a bare string becomes one text block. */
export function contentBlocks(message: Record<string, unknown> | null): ContentBlock[] {
  const content = message?.content;
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  if (!Array.isArray(content)) return [];
  return content.filter((block): block is ContentBlock => obj(block) !== null && typeof (block as ContentBlock).type === 'string');
}

/**
 * Usage of an assistant record, or null when it carries none that counts. Synthetic assistant
 * lines (`model: "<synthetic>"`: API errors, interruptions) and API error records report zeros
 * that say nothing about the context, so they are skipped, as Claude Code's own gauge does.
 */
export function usageOf(record: RawRecord): UsageBreakdown | null {
  if (record.type !== 'assistant' || record.isApiErrorMessage === true) return null;
  const message = messageOf(record);
  if (message === null || message.model === '<synthetic>') return null;
  const usage = obj(message.usage);
  if (usage === null || usageProblem(record) !== null) return null;
  const input = num(usage.input_tokens);
  if (input === null) return null;
  const reading: UsageBreakdown = {
    inputTokens: input,
    cacheCreationInputTokens: num(usage.cache_creation_input_tokens) ?? 0,
    cacheReadInputTokens: num(usage.cache_read_input_tokens) ?? 0,
    outputTokens: num(usage.output_tokens) ?? 0,
  };
  const hour = num(obj(usage.cache_creation)?.ephemeral_1h_input_tokens) ?? 0;
  // Only when there is one: most sessions write 5-minute entries only.
  if (hour > 0) reading.cacheWrite1hTokens = Math.min(hour, reading.cacheCreationInputTokens);
  // Every request sends at least a prompt: all zeros means the call never reached the API (older
  // versions record such failures under the real model name, without the synthetic markers).
  return promptTokensOf(reading) === 0 && reading.outputTokens === 0 ? null : reading;
}

/** 100× the largest context window: a count above it is damage, not a reading. */
export const MAX_USAGE_TOKENS = 100_000_000;
const USAGE_FIELDS = ['input_tokens', 'cache_creation_input_tokens', 'cache_read_input_tokens', 'output_tokens'] as const;

/**
 * Why an assistant record's usage cannot be a reading (a count that is negative, fractional, not a
 * number or absurdly large), or null when it is fine or absent. Such a usage is ignored whole.
 */
export function usageProblem(record: RawRecord): string | null {
  if (record.type !== 'assistant') return null;
  const usage = obj(messageOf(record)?.usage);
  if (usage === null) return null;
  for (const field of USAGE_FIELDS) {
    const value = usage[field];
    if (value === undefined || value === null) continue;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > MAX_USAGE_TOKENS) {
      return `usage.${field} is ${typeof value === 'number' ? String(value) : JSON.stringify(value)?.slice(0, 40)}, not a token count`;
    }
  }
  return null;
}

/** Ids of the tool_use blocks in a message's content. */
export function toolUseIds(blocks: readonly ContentBlock[]): string[] {
  return blocks.flatMap((block) => ((block.type === 'tool_use' || block.type === 'server_tool_use') && typeof block.id === 'string' ? [block.id] : []));
}

/** Ids named by the tool_result blocks in a message's content. */
export function toolResultIds(blocks: readonly ContentBlock[]): string[] {
  return blocks.flatMap((block) => (block.type === 'tool_result' && typeof block.tool_use_id === 'string' ? [block.tool_use_id] : []));
}
