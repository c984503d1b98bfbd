// OpenCode's live history as the messages its model is sent, in the agent-neutral (Anthropic
// Messages) shape the engine reads: a user message's text; an assistant message (one model call)
// with its text, reasoning and tool calls; its tool results as the next user-side message. As
// OpenCode sends them: a compaction request reads "What did we do so far?", a pruned tool result
// "[Old tool result content cleared]", an unfinished call is reported interrupted.
import type { ApiMessage, ContentBlock, ContextEntry, EntryKind, LiveCall } from '../../types';
import { compactionPartOf, isAssistant, isSummary } from './history';
import { isoOf, obj, promptOf, str, tokensOf, type MessageRow, type PartRow } from './rows';

export const COMPACTION_REQUEST_TEXT = 'What did we do so far?';
export const PRUNED_RESULT_TEXT = '[Old tool result content cleared]';
const INTERRUPTED_TEXT = '[Tool execution was interrupted]';

export interface BuiltMessages {
  messages: ApiMessage[];
  entries: ContextEntry[];
  calls: LiveCall[];
}

/** A tool part's result as OpenCode replays it. */
export function toolResultText(part: PartRow): { text: string; isError: boolean } {
  const state = obj(part.data.state);
  const status = str(state?.status);
  if (status === 'completed') return { text: obj(state?.time)?.compacted !== undefined ? PRUNED_RESULT_TEXT : (str(state?.output) ?? ''), isError: false };
  if (status === 'error') return { text: str(state?.error) ?? '', isError: true };
  return { text: INTERRUPTED_TEXT, isError: true };
}

function userBlocks(message: MessageRow): ContentBlock[] {
  if (compactionPartOf(message) !== undefined) return [{ type: 'text', text: COMPACTION_REQUEST_TEXT }];
  const blocks: ContentBlock[] = [];
  for (const part of message.parts) {
    if (part.data.type === 'text' && part.data.ignored !== true) blocks.push({ type: 'text', text: str(part.data.text) ?? '' });
    else if (part.data.type === 'file') blocks.push({ type: 'text', text: `[file ${str(part.data.filename) ?? str(part.data.url) ?? ''}]` });
  }
  return blocks;
}

function assistantBlocks(message: MessageRow): { blocks: ContentBlock[]; results: ContentBlock[]; resultRefs: string[] } {
  const blocks: ContentBlock[] = [];
  const results: ContentBlock[] = [];
  const resultRefs: string[] = [];
  for (const part of message.parts) {
    const type = part.data.type;
    if (type === 'text' && part.data.synthetic !== true) blocks.push({ type: 'text', text: str(part.data.text) ?? '' });
    else if (type === 'reasoning') blocks.push({ type: 'thinking', thinking: str(part.data.text) ?? '' });
    else if (type === 'tool') {
      const callId = str(part.data.callID) ?? part.id;
      blocks.push({ type: 'tool_use', id: callId, name: str(part.data.tool) ?? 'unknown', input: obj(obj(part.data.state)?.input) ?? {} });
      const result = toolResultText(part);
      results.push({ type: 'tool_result', tool_use_id: callId, content: result.text, ...(result.isError ? { is_error: true } : {}) });
      resultRefs.push(part.id);
    }
  }
  return { blocks, results, resultRefs };
}

/** The model, `provider/model`, that answered an assistant message. */
export function modelOf(message: MessageRow): string | null {
  const model = str(message.data.modelID);
  if (model === null) return null;
  const provider = str(message.data.providerID);
  return provider === null ? model : `${provider}/${model}`;
}

export function buildMessages(live: readonly MessageRow[]): BuiltMessages {
  const messages: ApiMessage[] = [];
  const entries: ContextEntry[] = [];
  const calls: LiveCall[] = [];
  // Consecutive user-side content (tool results, then a prompt) is one message, as the API receives it.
  const push = (
    role: ApiMessage['role'],
    content: ContentBlock[],
    ref: string,
    kind: EntryKind,
    timestamp: string | null,
    toolIds: { uses?: string[]; results?: string[] } = {},
  ): number => {
    const last = messages[messages.length - 1];
    const lastEntry = entries[entries.length - 1];
    if (role === 'user' && last?.role === 'user' && lastEntry !== undefined) {
      last.content.push(...content);
      lastEntry.uuids.push(ref);
      lastEntry.recordKinds.push(kind);
      lastEntry.toolResultIds.push(...(toolIds.results ?? []));
      if (kind === 'user') lastEntry.kind = 'user';
      return messages.length - 1;
    }
    messages.push({ role, content });
    entries.push({
      messageIndex: messages.length - 1,
      kind,
      uuids: [ref],
      recordKinds: [kind],
      lines: [],
      timestamp,
      toolUseIds: toolIds.uses ?? [],
      toolResultIds: toolIds.results ?? [],
    });
    return messages.length - 1;
  };
  for (const message of live) {
    const at = isoOf(message.timeCreated);
    if (!isAssistant(message)) {
      const blocks = userBlocks(message);
      if (blocks.length > 0) push('user', blocks, message.id, compactionPartOf(message) !== undefined ? 'meta' : 'user', at);
      continue;
    }
    const { blocks, results, resultRefs } = assistantBlocks(message);
    if (blocks.length === 0 && results.length === 0) continue;
    const index = push(
      'assistant',
      blocks.length > 0 ? blocks : [{ type: 'text', text: '' }],
      message.id,
      isSummary(message) ? 'compact-summary' : 'assistant',
      at,
      { uses: results.map((block) => String(block.tool_use_id)) },
    );
    const tokens = tokensOf(message.data.tokens);
    // The summariser's call was sent the old history, not this one: it sizes nothing here.
    if (tokens !== null && promptOf(tokens) > 0 && !isSummary(message)) {
      calls.push({
        from: index,
        to: index,
        usage: {
          inputTokens: tokens.input,
          cacheCreationInputTokens: tokens.cacheWrite,
          cacheReadInputTokens: tokens.cacheRead,
          outputTokens: tokens.output + tokens.reasoning,
        },
        model: modelOf(message),
        at,
      });
    }
    if (results.length > 0)
      push('user', results, resultRefs[0] ?? message.id, 'tool-result', at, { results: results.map((block) => String(block.tool_use_id)) });
    for (const ref of resultRefs.slice(1)) entries[entries.length - 1]?.uuids.push(ref);
  }
  return { messages, entries, calls };
}
