// Turns the live chain of records into Anthropic Messages, remembering which records each message
// came from so the panel can point at transcript lines and the compaction engine at uuids.
import { markBlock } from '../../engine';
import type { ApiMessage, ContentBlock, ContextEntry, Diagnostic, EntryKind } from '../types';
import { notTypedBecause } from './provenance';
import { contentBlocks, messageOf, obj, str, toolResultIds, toolUseIds, uuidOf, type LocatedRecord, type RawRecord } from './records';

export interface BuiltMessages {
  messages: ApiMessage[];
  entries: ContextEntry[];
  diagnostics: Diagnostic[];
}

/** When user-side records merge into one turn, the turn is named after the most telling one. */
const KIND_RANK: readonly EntryKind[] = ['compact-summary', 'user', 'tool-result', 'meta', 'attachment', 'assistant'];

/**
 * Builds messages from chain records (oldest first), the way Claude Code shapes its requests:
 * streamed lines of one response (same `message.id`) become one assistant message, also when tool
 * results were written between them; consecutive user-side records (prompt, tool results,
 * reminders, attachments) become one user message.
 */
export function messagesFromChain(records: readonly LocatedRecord[], path?: string): BuiltMessages {
  const messages: ApiMessage[] = [];
  const entries: ContextEntry[] = [];
  let lastAssistant = null as { index: number; id: string | null } | null;
  for (const located of records) {
    const part = convert(located.record);
    if (part === null) continue;
    const messageId = part.role === 'assistant' ? str(messageOf(located.record)?.id) : null;
    let target = -1;
    if (part.role === 'assistant' && messageId !== null && lastAssistant?.id === messageId && onlyToolResultsSince(messages, lastAssistant.index))
      target = lastAssistant.index;
    else if (part.role === 'user' && messages.at(-1)?.role === 'user') target = messages.length - 1;
    if (target < 0) {
      target = messages.length;
      messages.push({ role: part.role, content: [] });
      entries.push({
        messageIndex: target,
        kind: part.kind,
        uuids: [],
        recordKinds: [],
        lines: [],
        timestamp: str(located.record.timestamp),
        toolUseIds: [],
        toolResultIds: [],
      });
      if (part.role === 'assistant') lastAssistant = { index: target, id: messageId };
    }
    (messages[target] as ApiMessage).content.push(...part.content);
    extend(entries[target] as ContextEntry, located, part);
  }
  return { messages, entries, diagnostics: pairingDiagnostics(entries, path) };
}

function extend(entry: ContextEntry, located: LocatedRecord, part: Part): void {
  entry.uuids.push(uuidOf(located.record) as string);
  entry.recordKinds.push(part.kind);
  if (KIND_RANK.indexOf(part.kind) < KIND_RANK.indexOf(entry.kind)) entry.kind = part.kind;
  if (located.line > 0) entry.lines.push(located.line);
  entry.toolUseIds.push(...toolUseIds(part.content));
  entry.toolResultIds.push(...toolResultIds(part.content));
}

function onlyToolResultsSince(messages: readonly ApiMessage[], index: number): boolean {
  for (let later = index + 1; later < messages.length; later++) {
    const message = messages[later] as ApiMessage;
    if (message.role !== 'user' || !message.content.every((block) => block.type === 'tool_result')) return false;
  }
  return true;
}

interface Part {
  role: ApiMessage['role'];
  kind: EntryKind;
  content: ContentBlock[];
}

/** What one record puts in front of the model (empty for records it never sees). */
export function modelContent(record: RawRecord): ContentBlock[] {
  return convert(record)?.content ?? [];
}

/** One record as message content, or null for records the model never sees. */
function convert(record: RawRecord): Part | null {
  if (record.type === 'assistant') {
    if (record.isApiErrorMessage === true) return null;
    const content = contentBlocks(messageOf(record));
    return content.length === 0 ? null : { role: 'assistant', kind: 'assistant', content };
  }
  if (record.type === 'user') {
    const content = contentBlocks(messageOf(record));
    // The summary shares its API message with the turns kept after it: only its own text is summary.
    if (record.isCompactSummary === true) content.forEach((block) => markBlock(block, 'summary'));
    // Text the person did not type is reference material for the engine, never a constraint.
    else for (const block of content) if (block.type === 'text' && notTypedBecause(record, block, content) !== null) markBlock(block, 'harness');
    return content.length === 0 ? null : { role: 'user', kind: userKind(record, content), content };
  }
  if (record.type === 'attachment') {
    const content = renderedAttachment(record).map((block) => markBlock(block, 'harness'));
    return content.length === 0 ? null : { role: 'user', kind: 'attachment', content };
  }
  return null;
}

function userKind(record: RawRecord, content: readonly ContentBlock[]): EntryKind {
  if (record.isCompactSummary === true) return 'compact-summary';
  if (content.every((block) => block.type === 'tool_result')) return 'tool-result';
  if (record.isMeta === true) return 'meta';
  return 'user';
}

/**
 * Claude Code (2.1.3xx) stores the text an attachment put in front of the model in `rendered`
 * (`[{content}]`, usually system-reminder blocks). Attachments without it (prompt snapshots,
 * session context) are bookkeeping the model never saw.
 */
function renderedAttachment(record: RawRecord): ContentBlock[] {
  const rendered = record.rendered;
  if (!Array.isArray(rendered)) return [];
  return rendered.flatMap((item) => {
    const text = str(obj(item)?.content);
    return text === null ? [] : [{ type: 'text', text }];
  });
}

/**
 * tool_use without a tool_result (or the reverse) breaks an API request. A tool_use in the last
 * assistant message is simply still running, so it is not reported.
 */
function pairingDiagnostics(entries: readonly ContextEntry[], path?: string): Diagnostic[] {
  const results = new Set(entries.flatMap((entry) => entry.toolResultIds));
  const uses = new Set(entries.flatMap((entry) => entry.toolUseIds));
  const lastAssistant = [...entries].reverse().find((entry) => entry.kind === 'assistant');
  const diagnostics: Diagnostic[] = [];
  const report = (entry: ContextEntry, code: string, message: string): void => {
    const diagnostic: Diagnostic = { severity: 'warning', code, message };
    if (entry.lines[0] !== undefined) diagnostic.line = entry.lines[0];
    if (path !== undefined) diagnostic.path = path;
    diagnostics.push(diagnostic);
  };
  for (const entry of entries) {
    for (const id of entry.toolUseIds)
      if (!results.has(id) && entry !== lastAssistant) report(entry, 'orphan-tool-use', `tool_use ${id} has no tool_result in the live context`);
    for (const id of entry.toolResultIds) if (!uses.has(id)) report(entry, 'orphan-tool-result', `tool_result for ${id} has no tool_use in the live context`);
  }
  return diagnostics;
}
