// From a plan to what the model would see next: the surviving items in order (with the summary in
// place of the span it replaces), as Anthropic Messages (S18) and as a new engine `Context` that can
// be planned again. The message formatter is replaceable (S25).
import type { AnthropicConversation, Context, ContextItem, MessageBlock } from './model';
import type { PlannedItem } from './ladder/state';

/** One item of the compacted context; `original` is absent for text the engine wrote. */
export interface OutputItem {
  kind: ContextItem['kind'];
  role: ContextItem['role'];
  text: string;
  tokens: number;
  original?: ContextItem;
  changed: boolean;
}

export type MessageFormatter = (items: readonly OutputItem[]) => AnthropicConversation;

export function outputItems(planned: readonly PlannedItem[], inserted?: { index: number; item: OutputItem }): OutputItem[] {
  const items: OutputItem[] = [];
  planned.forEach((entry, index) => {
    if (inserted && inserted.index === index) items.push(inserted.item);
    if (entry.fate === 'dropped') return;
    items.push({
      kind: entry.item.kind,
      role: entry.item.role,
      text: entry.text,
      tokens: entry.tokensAfter,
      original: entry.item,
      changed: entry.fate === 'compacted',
    });
  });
  if (inserted && inserted.index >= planned.length) items.push(inserted.item);
  return items;
}

function blockOf(item: OutputItem): MessageBlock {
  const block = item.original?.block;
  if (block && !item.changed) return block;
  if (item.original?.kind === 'tool_result') {
    const { content: _content, ...rest } = block ?? { type: 'tool_result', tool_use_id: item.original.toolUseId };
    return { ...rest, type: 'tool_result', content: item.text };
  }
  return { type: 'text', text: item.text };
}

/**
 * Consecutive same-role items form one message (dropping can leave two user messages adjacent), and
 * within a user message tool results go first: the API wants them right after their calls.
 */
export const anthropicFormatter: MessageFormatter = (items) => {
  const conversation: AnthropicConversation = { system: [], tools: [], messages: [] };
  for (const item of items) {
    if (item.original?.unrecorded) continue;
    if (item.kind === 'system') conversation.system.push(blockOf(item));
    else if (item.kind === 'tools') conversation.tools.push(blockOf(item));
    else {
      const role = item.role === 'assistant' ? 'assistant' : 'user';
      const last = conversation.messages.at(-1);
      if (last?.role === role) last.content.push(blockOf(item));
      else conversation.messages.push({ role, content: [blockOf(item)] });
    }
  }
  for (const message of conversation.messages) {
    if (message.role === 'user') message.content.sort((a, b) => Number(b.type === 'tool_result') - Number(a.type === 'tool_result'));
  }
  return conversation;
};

/** The compacted context as engine input again: ids renumbered, message indexes recomputed. */
export function contextAfter(before: Context, items: readonly OutputItem[]): Context {
  let messageIndex = -1;
  let lastRole: string | undefined;
  let turn = 0;
  const result: ContextItem[] = items.map((item, id) => {
    const head = item.kind === 'system' || item.kind === 'tools';
    if (!head && item.role !== lastRole) {
      messageIndex += 1;
      lastRole = item.role;
    }
    if (item.kind === 'user') turn += 1;
    const base: ContextItem = item.original
      ? { ...item.original }
      : { id, kind: item.kind, role: item.role, turn, messageIndex, text: item.text, tokens: item.tokens };
    if (item.changed) delete base.block;
    return { ...base, id, turn: head ? 0 : turn, messageIndex: head ? -1 : messageIndex, text: item.text, tokens: item.tokens };
  });
  const usedTokens = result.reduce((sum, item) => sum + item.tokens, 0);
  return { items: result, windowTokens: before.windowTokens, usedTokens, usedSource: 'estimate', tokenScale: before.tokenScale };
}
