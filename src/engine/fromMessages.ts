// The adapter-facing builder: Anthropic Messages format (what Claude Code's transcripts rebuild to)
// plus the provider's usage total → engine `Context`. One item per content block, so fates and
// token counts are as fine-grained as what the model actually sees.
import { defaultTokenizer } from './tokens/cache';
import { scaleToTotal } from './tokens/scale';
import type { Tokenizer } from './tokens/tokenizer';
import type { AnthropicMessage, Context, ContextItem, ItemKind, MessageBlock, Role } from './model';
import { resourceKeyOf } from './resource';
import { categorizeTool } from './toolCategory';

export interface MessagesInput {
  system?: string | MessageBlock[];
  tools?: Record<string, unknown>[];
  messages: AnthropicMessage[];
  /** Exact total from the provider's usage (input + cache tokens); omitted: our own count. */
  usedTokens?: number;
  windowTokens: number;
  /** The agent's working directory, when known. */
  workspace?: string;
  /**
   * The request carried a system prompt and tools that the source did not record. With `usedTokens`,
   * what the messages do not account for is shown as one `unrecorded` head item instead of being
   * spread over the messages.
   */
  headNotRecorded?: boolean;
  /** Per message index: the source records it came from (e.g. transcript uuids). */
  sourceRefs?: (string[] | undefined)[];
  tokenizer?: Tokenizer;
}

/** What the `unrecorded` head item says in the region map and the diff. */
export const UNRECORDED_HEAD_TEXT = '[system prompt and tool definitions: sent with every request, not recorded in this transcript]';

/** Our own summaries and Claude Code's are recognised by text so re-compaction can merge them (S10). */
export const SUMMARY_TAG = 'context-summary';
const SUMMARY_TEXT = new RegExp(`<${SUMMARY_TAG}[\\s>]|^This session is being continued from a previous conversation`);
/** Harness-injected user text that is not something the person typed. */
const REMINDER_TEXT = /^\s*<(system-reminder|local-command-|command-name|command-message|user-prompt-submit-hook|bash-input|bash-stdout|bash-stderr)/;

/**
 * What an adapter knows about a user-side block that its text does not say: `harness` for what the
 * harness sent in a `system`-role message (newer Claude Code versions send reminders that way,
 * untagged), `summary` for the text of a compaction summary record (`isCompactSummary`), which
 * shares its API message with whatever turns were kept after it. Symbol keys never reach JSON or
 * the wire.
 */
const BLOCK_MARKS = { harness: Symbol.for('context-lens.harness-block'), summary: Symbol.for('context-lens.summary-block') } as const;
export type BlockMark = keyof typeof BLOCK_MARKS;

export function markBlock<T extends object>(block: T, mark: BlockMark): T {
  Object.defineProperty(block, BLOCK_MARKS[mark], { value: true, enumerable: false });
  return block;
}

export const markHarnessBlock = <T extends object>(block: T): T => markBlock(block, 'harness');

export const hasMark = (block: MessageBlock, mark: BlockMark): boolean => (block as unknown as Record<symbol, unknown>)[BLOCK_MARKS[mark]] === true;

/**
 * A block the tokenizer cannot read (a provider's encrypted item) carries the size its agent
 * measured; it is counted at that size instead of its placeholder text's.
 */
const MEASURED_TOKENS = Symbol.for('context-lens.measured-tokens');

export function withMeasuredTokens<T extends object>(block: T, tokens: number): T {
  Object.defineProperty(block, MEASURED_TOKENS, { value: tokens, enumerable: false });
  return block;
}

const measuredTokensOf = (block: MessageBlock): number | undefined => {
  const tokens = (block as unknown as Record<symbol, unknown>)[MEASURED_TOKENS];
  return typeof tokens === 'number' ? tokens : undefined;
};

function blocksOf(content: string | MessageBlock[]): MessageBlock[] {
  return typeof content === 'string' ? [{ type: 'text', text: content }] : content;
}

/** Text of a tool_result's content, which may be a string or a list of blocks. */
export function toolResultText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part: MessageBlock) => (part.type === 'text' && typeof part.text === 'string' ? part.text : `[${part.type}]`))
    .join('\n');
}

interface Draft {
  kind: ItemKind;
  role: Role;
  text: string;
  block: MessageBlock;
  extra?: Partial<ContextItem>;
}

function draftUserBlock(block: MessageBlock): Draft {
  if (block.type === 'tool_result') {
    return {
      kind: 'tool_result',
      role: 'user',
      text: toolResultText(block.content),
      block,
      extra: { toolUseId: String(block.tool_use_id ?? ''), isError: block.is_error === true },
    };
  }
  if (block.type === 'text' && typeof block.text === 'string') {
    const kind: ItemKind = hasMark(block, 'summary') || SUMMARY_TEXT.test(block.text) ? 'summary' : hasMark(block, 'harness') || REMINDER_TEXT.test(block.text) ? 'reminder' : 'user';
    return { kind, role: 'user', text: block.text, block };
  }
  // Images and documents: a placeholder keeps them visible; their real size comes from scaling.
  return { kind: 'user', role: 'user', text: `[${block.type}]`, block };
}

function draftAssistantBlock(block: MessageBlock): Draft {
  if (block.type === 'tool_use') {
    const name = String(block.name ?? '');
    const input = (block.input ?? {}) as Record<string, unknown>;
    const category = categorizeTool(name, input);
    return {
      kind: 'tool_use',
      role: 'assistant',
      text: `${name} ${JSON.stringify(input)}`,
      block,
      extra: { toolUseId: String(block.id ?? ''), toolName: name, toolCategory: category, resourceKey: resourceKeyOf(name, category, input) },
    };
  }
  if (block.type === 'thinking' || block.type === 'redacted_thinking') {
    return { kind: 'thinking', role: 'assistant', text: typeof block.thinking === 'string' ? block.thinking : '', block };
  }
  const text = block.type === 'text' && typeof block.text === 'string' ? block.text : JSON.stringify(block);
  return { kind: 'assistant', role: 'assistant', text, block };
}

export function contextFromMessages(input: MessagesInput): Context {
  const tokenizer = input.tokenizer ?? defaultTokenizer();
  const drafts: (Draft & { messageIndex: number; turn: number; sourceRef?: string[] })[] = [];
  for (const block of input.system === undefined ? [] : blocksOf(input.system)) {
    drafts.push({ kind: 'system', role: 'system', text: typeof block.text === 'string' ? block.text : JSON.stringify(block), block, messageIndex: -1, turn: 0 });
  }
  for (const tool of input.tools ?? []) {
    drafts.push({ kind: 'tools', role: 'system', text: JSON.stringify(tool), block: tool as MessageBlock, messageIndex: -1, turn: 0 });
  }

  const toolUses = new Map<string, Partial<ContextItem>>();
  let turn = 0;
  input.messages.forEach((message, messageIndex) => {
    const blocks = blocksOf(message.content);
    const messageDrafts =
      message.role === 'user' ? blocks.map(draftUserBlock) : blocks.map(draftAssistantBlock);
    // A turn starts where the person speaks; tool results and harness reminders continue the turn.
    if (messageDrafts.some((draft) => draft.kind === 'user')) turn += 1;
    for (const draft of messageDrafts) {
      if (draft.kind === 'tool_use' && draft.extra?.toolUseId) toolUses.set(draft.extra.toolUseId, draft.extra);
      if (draft.kind === 'tool_result') {
        // Results inherit what their call touched: the call's input is where the resource is named.
        const use = toolUses.get(draft.extra?.toolUseId ?? '');
        if (use) draft.extra = { ...draft.extra, toolName: use.toolName, toolCategory: use.toolCategory, resourceKey: use.resourceKey };
      }
      drafts.push({ ...draft, messageIndex, turn, sourceRef: input.sourceRefs?.[messageIndex] });
    }
  });

  const raw = drafts.map((draft) => measuredTokensOf(draft.block) ?? tokenizer.count(draft.text));
  const unrecorded = input.headNotRecorded === true && input.usedTokens !== undefined ? input.usedTokens - raw.reduce((sum, count) => sum + count, 0) : 0;
  if (unrecorded > 0) {
    drafts.unshift({ kind: 'system', role: 'system', text: UNRECORDED_HEAD_TEXT, block: { type: 'text', text: '' }, messageIndex: -1, turn: 0, extra: { unrecorded: true } });
    raw.unshift(unrecorded);
  }
  const { counts, scale } = scaleToTotal(raw, input.usedTokens);
  const items: ContextItem[] = drafts.map((draft, id) => ({
    id,
    kind: draft.kind,
    role: draft.role,
    turn: draft.turn,
    messageIndex: draft.messageIndex,
    text: draft.text,
    tokens: counts[id] ?? 0,
    block: draft.block,
    ...draft.extra,
    ...(draft.sourceRef ? { sourceRef: draft.sourceRef } : {}),
  }));
  const usedTokens = input.usedTokens ?? counts.reduce((sum, value) => sum + value, 0);
  return { items, windowTokens: input.windowTokens, usedTokens, usedSource: input.usedTokens === undefined ? 'estimate' : 'usage', tokenScale: scale, ...(input.workspace ? { workspace: input.workspace } : {}) };
}
