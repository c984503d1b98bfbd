// The model's history as the engine reads it (Anthropic Messages shape): Codex's history items
// turned into content blocks and grouped into alternating turns. Messages from the user, the
// harness (developer messages, environment context) and tool outputs form user turns; the model's
// reasoning, answers and tool calls form assistant turns. A call and its output share the call_id
// as tool_use id, so the engine keeps or drops them together. Codex's own encrypted compaction
// items are set apart as `opaque` blocks (the caller puts them in the head, which no tier touches),
// counted at Codex's own estimate of their size.
import { markBlock, markHarnessBlock, withMeasuredTokens } from '../../engine';
import type { ApiMessage, ContentBlock, ContextEntry, Diagnostic, EntryKind } from '../types';
import { thousands } from '../../base/format';
import {
  callIdOf,
  isInjectedUserText,
  isModelOutput,
  isOpaqueCompaction,
  isToolCall,
  isToolOutput,
  obj,
  opaqueCompactionTokens,
  outputText,
  reasoningText,
  str,
  type HistoryItem,
} from './records';

/** One history item with where it came from. */
export interface PlacedItem {
  item: HistoryItem;
  /** `itemRef` of the item: how a fork names what it keeps. */
  ref: string;
  line: number;
  timestamp: string | null;
  /** The user message carrying a compaction's summary (the last one of its replacement_history). */
  isSummary?: boolean;
}

export interface HistoryMessages {
  messages: ApiMessage[];
  entries: ContextEntry[];
  /** Codex's own compaction items, as placeholder blocks with Codex's token estimate: kept, never rewritten. */
  opaque: ContentBlock[];
  diagnostics: Diagnostic[];
}

/** What the engine shows for one of Codex's encrypted compaction items. */
function opaqueBlock(item: HistoryItem): ContentBlock {
  const bytes = str(item.encrypted_content)?.length ?? 0;
  const text = `[Codex's own compaction (${item.type}): its encrypted summary of the earlier conversation, ${thousands(bytes)} bytes; only Codex can read it, so it is kept verbatim]`;
  return withMeasuredTokens({ type: 'text', text }, opaqueCompactionTokens(item));
}

/** Tool arguments as an object: Codex sends JSON text; anything else is kept under `arguments`. */
function toolInput(item: HistoryItem): Record<string, unknown> {
  if (item.type === 'custom_tool_call') return { input: str(item.input) ?? '' };
  if (item.type === 'local_shell_call') return obj(item.action) ?? {};
  const raw = str(item.arguments) ?? '';
  try {
    const parsed: unknown = JSON.parse(raw);
    return obj(parsed) ?? { arguments: raw };
  } catch {
    return { arguments: raw };
  }
}

interface Converted {
  blocks: ContentBlock[];
  kinds: EntryKind[];
}

function messageBlocks(item: HistoryItem, isSummary: boolean): Converted {
  const parts = typeof item.content === 'string' ? [{ type: 'input_text', text: item.content }] : Array.isArray(item.content) ? item.content : [];
  const blocks: ContentBlock[] = [];
  const kinds: EntryKind[] = [];
  for (const value of parts) {
    const part = obj(value);
    const text = str(part?.text);
    if (text === null) {
      blocks.push({ type: str(part?.type)?.replace(/^input_/, '') ?? 'content' });
      kinds.push('attachment');
      continue;
    }
    const block: ContentBlock = { type: 'text', text };
    if (item.role === 'assistant') kinds.push('assistant');
    else if (isSummary) kinds.push('compact-summary');
    else if (item.role === 'developer' || item.role === 'system' || isInjectedUserText(text)) kinds.push('meta');
    else kinds.push('user');
    if (isSummary) markBlock(block, 'summary');
    else if (kinds.at(-1) === 'meta') markHarnessBlock(block);
    blocks.push(block);
  }
  return { blocks, kinds };
}

function convert(placed: PlacedItem): Converted | null {
  const { item } = placed;
  switch (item.type) {
    case 'message':
      return messageBlocks(item, placed.isSummary === true);
    case 'reasoning':
      // What Codex shows of its reasoning is a summary; the model is sent the encrypted whole.
      return { blocks: [markBlock({ type: 'thinking', thinking: reasoningText(item) }, 'hidden')], kinds: ['assistant'] };
    case 'function_call':
    case 'custom_tool_call':
    case 'local_shell_call':
      return {
        blocks: [
          {
            type: 'tool_use',
            id: callIdOf(item) ?? '',
            name: str(item.name) ?? (item.type === 'local_shell_call' ? 'local_shell' : ''),
            input: toolInput(item),
          },
        ],
        kinds: ['assistant'],
      };
    case 'function_call_output':
    case 'custom_tool_call_output':
      return { blocks: [{ type: 'tool_result', tool_use_id: callIdOf(item) ?? '', content: outputText(item) }], kinds: ['tool-result'] };
    default:
      return null;
  }
}

/** Turns history items (in order) into the engine's messages, one entry per message. */
export function messagesFromHistory(items: readonly PlacedItem[], path?: string): HistoryMessages {
  const messages: ApiMessage[] = [];
  const entries: ContextEntry[] = [];
  const opaque: ContentBlock[] = [];
  const diagnostics: Diagnostic[] = [];
  const report = (severity: Diagnostic['severity'], code: string, message: string, line: number): void => {
    diagnostics.push({ severity, code, message, ...(line > 0 ? { line } : {}), ...(path !== undefined ? { path } : {}) });
  };
  const calls = new Set<string>();
  const answered = new Set<string>();
  const skipped = new Map<string, { count: number; line: number }>();
  for (const placed of items) {
    const { item } = placed;
    const id = callIdOf(item);
    if (isToolOutput(item) && (id === null || !calls.has(id))) {
      // An output whose call is not in the live history cannot be sent: the API pairs them.
      report('warning', 'orphan-tool-result', `Tool output ${id ?? '(no call_id)'} has no call in the live history; left out`, placed.line);
      continue;
    }
    if (isOpaqueCompaction(item)) {
      opaque.push(opaqueBlock(item));
      continue;
    }
    const converted = convert(placed);
    if (converted === null || converted.blocks.length === 0) {
      const seen = skipped.get(item.type);
      if (seen) seen.count++;
      else skipped.set(item.type, { count: 1, line: placed.line });
      continue;
    }
    if (isToolCall(item) && id !== null) calls.add(id);
    if (isToolOutput(item) && id !== null) answered.add(id);
    const role = isModelOutput(item) ? 'assistant' : 'user';
    let message = messages.at(-1);
    let entry = entries.at(-1);
    if (message === undefined || entry === undefined || message.role !== role) {
      message = { role, content: [] };
      entry = {
        messageIndex: messages.length,
        kind: role === 'assistant' ? 'assistant' : 'meta',
        uuids: [],
        recordKinds: [],
        lines: [],
        timestamp: placed.timestamp,
        toolUseIds: [],
        toolResultIds: [],
      };
      messages.push(message);
      entries.push(entry);
    }
    message.content.push(...converted.blocks);
    entry.uuids.push(placed.ref);
    entry.recordKinds.push(converted.kinds[0] ?? 'meta');
    entry.lines.push(placed.line);
    for (const block of converted.blocks) {
      if (block.type === 'tool_use') entry.toolUseIds.push(String(block.id));
      if (block.type === 'tool_result') entry.toolResultIds.push(String(block.tool_use_id));
    }
    if (role === 'user') entry.kind = userKind(entry.kind, converted.kinds);
  }
  const lastAssistant = entries.findLast((entry) => messages[entry.messageIndex]?.role === 'assistant');
  for (const entry of entries) {
    for (const id of entry.toolUseIds) {
      // The newest response's calls may still be running; an older unanswered call is damage.
      if (!answered.has(id) && entry !== lastAssistant)
        report('info', 'orphan-tool-use', `Tool call ${id} has no output in the live history`, entry.lines[0] ?? 0);
    }
  }
  for (const [type, { count, line }] of skipped) report('info', 'unsupported-item', `${count} history item(s) of type '${type}' not shown to the engine`, line);
  return { messages, entries, opaque, diagnostics };
}

/** What a user turn mainly is: a prompt wins over a summary, a summary over tool results, those over harness text. */
function userKind(current: EntryKind, added: readonly EntryKind[]): EntryKind {
  const rank: EntryKind[] = ['user', 'compact-summary', 'tool-result', 'attachment', 'meta'];
  return [current, ...added].reduce((best, kind) => (rank.indexOf(kind) < rank.indexOf(best) ? kind : best));
}
