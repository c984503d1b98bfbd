// The provider-neutral context the engine works on. Adapters (src/sessions/*) translate an agent's
// transcript into this shape; every tier, policy and report reads only these types, so the engine
// never learns any one agent's file format.
import type { MeasuredCall, TokenBasis } from './tokens/attribute';

/** What an item is; the tiers treat each kind differently (only tool results are ever stubbed). */
export type ItemKind = 'system' | 'tools' | 'user' | 'assistant' | 'thinking' | 'tool_use' | 'tool_result' | 'reminder' | 'summary';

export type Role = 'system' | 'user' | 'assistant';

/** What a breakdown counts an item under: its kind, or the system prompt and tools nobody recorded. */
export type ItemCategory = ItemKind | 'unrecorded';

export function categoryOf(item: Pick<ContextItem, 'kind' | 'unrecorded'>): ItemCategory {
  return item.unrecorded ? 'unrecorded' : item.kind;
}

/** Tool categories of seed 002; allow/deny lists and truncation caps are expressed in these. */
export const TOOL_CATEGORIES = ['file_read', 'file_write', 'view_file', 'command_execution', 'search', 'list_directory', 'test_execution', 'other'] as const;
export type ToolCategory = (typeof TOOL_CATEGORIES)[number];

/** One block of the context: the unit every fate, reason and token count refers to. */
export interface ContextItem {
  /** Position in `Context.items` (ids equal indexes); reasons cite it as `#id`. */
  id: number;
  kind: ItemKind;
  role: Role;
  /** 0 for the head; increments at every real user message (not at tool results or reminders). */
  turn: number;
  /** Index of the provider message the block belongs to; -1 for system and tool definitions. */
  messageIndex: number;
  text: string;
  /** Tokens of this item, already scaled so that the context total matches `usedTokens`. */
  tokens: number;
  /** Pairs tool_use with tool_result. */
  toolUseId?: string;
  toolName?: string;
  toolCategory?: ToolCategory;
  /** Identity of what a tool touched (normalised path + range, command signature, query). */
  resourceKey?: string;
  /** The tool result reported failure (`is_error`). */
  isError?: boolean;
  /** The original provider block, so the formatter can emit it unchanged when the item survives. */
  block?: MessageBlock;
  /** Opaque pointer back to the source the adapter read (e.g. transcript record uuids). */
  sourceRef?: string[];
  /**
   * How `tokens` was obtained: `measured` (the provider's usage for this item alone), `split` (a
   * measured amount shared with the items written beside it, by estimate) or `estimated` (no call
   * has measured it yet, or the session reports no usage).
   */
  basis?: TokenBasis;
  /** Tokens of this item a later call no longer counted (the API dropped earlier thinking, cleared old results). */
  apiDropped?: number;
  /**
   * Stands for the system prompt and tool definitions when the agent did not record them (older
   * Claude Code versions): its tokens are the exact total minus the messages' estimate. Never sent.
   */
  unrecorded?: true;
  /**
   * Part of that unrecorded head the agent sent once, not with every request: what Claude Code
   * re-attached (recently read files) to its first call after its own compaction. A fork does not
   * send it, so a compaction drops it and it is not part of the floor.
   */
  reattached?: true;
}

export type UsedSource = 'usage' | 'estimate';

export interface Context {
  items: ContextItem[];
  /** Size of the model's context window in tokens. */
  windowTokens: number;
  /** Total tokens of the context: exact when the provider reported usage, else our own count. */
  usedTokens: number;
  usedSource: UsedSource;
  /**
   * Factor applied to raw tokenizer counts to make items sum to `usedTokens`. New text the engine
   * writes (stubs, summaries) is scaled by the same factor so before/after stay comparable.
   */
  tokenScale: number;
  /** The agent's working directory, when the adapter knows it (summaries name files relative to it). */
  workspace?: string;
  /** What the provider's calls measured (through the last response); the rest of `usedTokens` is estimated. */
  measuredTokens?: number;
  /** The calls the items were sized from, oldest first (message indexes of their responses). */
  calls?: MeasuredCall[];
}

/** Anthropic Messages content block, kept loose: the engine passes unknown fields through. */
export interface MessageBlock {
  type: string;
  [key: string]: unknown;
}

export interface AnthropicMessage {
  role: 'user' | 'assistant';
  content: string | MessageBlock[];
}

/** A request body in Anthropic Messages format (what the compacted context is emitted as). */
export interface AnthropicConversation {
  system: MessageBlock[];
  tools: Record<string, unknown>[];
  messages: { role: 'user' | 'assistant'; content: MessageBlock[] }[];
}

export function sumTokens(items: readonly { tokens: number }[]): number {
  let total = 0;
  for (const item of items) total += item.tokens;
  return total;
}
