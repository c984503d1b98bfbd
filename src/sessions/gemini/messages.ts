// The live messages as the engine reads them (Anthropic Messages shape), built the way the CLI
// turns a chat back into model history on resume (convertSessionToClientHistory in 0.61):
// - `info` / `error` / `warning` messages and slash commands are the CLI's own, never sent;
// - a user message is its parts: text (the `<session_context>` the CLI sets up marked as harness,
//   a compression's `<state_snapshot>` or our fork's summary as the summary), functionResponse
//   parts as tool results;
// - a gemini message is its text and its calls: the functionCall parts of `content` when it holds
//   them (a history written back by `$set`), else its `toolCalls`; each call's stored `result`
//   follows as a user turn of tool results. Its thoughts are not: the CLI strips thought parts from
//   the history it sends (0.61 `stripThoughts`, and a reply's thoughts are never recorded into it),
//   and the next call's prompt grows by the reply's output alone, never by its thoughts.
// Refs: a message's blocks are named by its id, the tool results of its calls by `<id>#results`.
// While it runs, the CLI stores each result twice: on the gemini message's call and as a user
// message of functionResponse parts, which is what the model was sent; the user message wins and
// the copy on the call is shown only when no user message holds it (older CLIs wrote none). A
// resume writes the history back with the results once more: each is kept once, as the engine
// pairs each call with one result.
import { markBlock, markHarnessBlock } from '../../engine';
import type { ApiMessage, ContentBlock, ContextEntry, Diagnostic, EntryKind } from '../types';
import type { PlacedMessage } from './conversation';
import { isHarnessOrCommand, isSessionContext, isSummary, jsonText, obj, partsOf, str, type MessageRecord } from './records';

export interface LiveMessages {
  messages: ApiMessage[];
  entries: ContextEntry[];
  diagnostics: Diagnostic[];
}

/** The ref of the tool results stored on a gemini message's calls. */
export const resultsRef = (id: string): string => `${id}#results`;

interface Piece {
  role: 'user' | 'assistant';
  ref: string;
  kind: EntryKind;
  blocks: ContentBlock[];
}

/** The text of a functionResponse's `response`: its output, or its error, or the object. */
function responseText(response: unknown): { text: string; isError: boolean } {
  const body = obj(response);
  const output = body?.output;
  if (typeof output === 'string') return { text: output, isError: false };
  if (typeof body?.error === 'string') return { text: body.error, isError: true };
  return { text: output !== undefined ? jsonText(output) : jsonText(response ?? ''), isError: false };
}

/** A part that is neither text nor a call nor a response: inline data, a file, code… as a short placeholder. */
function otherPart(part: Record<string, unknown>): ContentBlock {
  const data = obj(part.inlineData) ?? obj(part.fileData);
  const mime = str(data?.mimeType) ?? 'unknown type';
  const size = str(obj(part.inlineData)?.data)?.length;
  return { type: 'text', text: data !== null ? `[attached ${mime}${size !== undefined ? `, ${size} base64 characters` : ''}]` : jsonText(part) };
}

/** Blocks of user-side parts (a prompt, the CLI's context, function responses). */
function userBlocks(
  parts: readonly Record<string, unknown>[],
  message: MessageRecord,
  answered: Set<string>,
  duplicates: { count: number },
): { blocks: ContentBlock[]; kind: EntryKind } {
  const blocks: ContentBlock[] = [];
  let kind: EntryKind = 'meta';
  const summary = isSummary(message);
  for (const part of parts) {
    const response = obj(part.functionResponse);
    if (response !== null) {
      const id = str(response.id) ?? `${message.id}:${str(response.name) ?? 'call'}`;
      if (answered.has(id)) {
        duplicates.count++;
        continue;
      }
      answered.add(id);
      const { text, isError } = responseText(response.response);
      blocks.push({ type: 'tool_result', tool_use_id: id, content: text, ...(isError ? { is_error: true } : {}) });
      if (kind === 'meta') kind = 'tool-result';
      continue;
    }
    if (typeof part.text === 'string') {
      if (part.thought === true) continue;
      const block: ContentBlock = { type: 'text', text: part.text };
      if (summary) {
        markBlock(block, 'summary');
        kind = 'compact-summary';
      } else if (isSessionContext(part.text)) markHarnessBlock(block);
      else kind = 'user';
      blocks.push(block);
      continue;
    }
    blocks.push(otherPart(part));
    if (kind === 'meta') kind = 'attachment';
  }
  return { blocks, kind };
}

interface StoredCall {
  id: string;
  name: string;
  args: Record<string, unknown>;
  result: unknown;
  failed: boolean;
}

function callsOf(message: MessageRecord): StoredCall[] {
  if (!Array.isArray(message.toolCalls)) return [];
  return message.toolCalls.flatMap((value, index) => {
    const call = obj(value);
    if (call === null) return [];
    const status = str(call.status);
    return [
      {
        id: str(call.id) ?? `${message.id}:${index}`,
        name: str(call.name) ?? 'unknown',
        args: obj(call.args) ?? {},
        result: call.result,
        failed: status === 'error' || status === 'cancelled',
      },
    ];
  });
}

/** A gemini message's own blocks as sent again: text and calls (thoughts are not sent). */
function modelBlocks(message: MessageRecord): ContentBlock[] {
  const parts = partsOf(message.content);
  const blocks: ContentBlock[] = [];
  const fromContent = parts.some((part) => obj(part.functionCall) !== null || part.thought === true);
  for (const part of parts) {
    const call = obj(part.functionCall);
    if (call !== null)
      blocks.push({
        type: 'tool_use',
        id: str(call.id) ?? `${message.id}:${str(call.name) ?? 'call'}`,
        name: str(call.name) ?? 'unknown',
        input: obj(call.args) ?? {},
      });
    else if (part.thought === true) continue;
    else if (typeof part.text === 'string') {
      if (part.text !== '') blocks.push({ type: 'text', text: part.text });
    } else blocks.push(otherPart(part));
  }
  if (!fromContent) for (const call of callsOf(message)) blocks.push({ type: 'tool_use', id: call.id, name: call.name, input: call.args });
  return blocks;
}

/** The results stored on a gemini message's calls, as tool_result blocks. */
function resultBlocks(message: MessageRecord, answered: Set<string>, duplicates: { count: number }, sentAsUser: ReadonlySet<string>): ContentBlock[] {
  const blocks: ContentBlock[] = [];
  for (const call of callsOf(message)) {
    if (call.result === undefined || call.result === null || sentAsUser.has(call.id)) continue;
    if (Array.isArray(call.result)) {
      const parts = partsOf(call.result).map((part) => {
        const response = obj(part.functionResponse);
        return response !== null && str(response.id) === null ? { ...part, functionResponse: { ...response, id: call.id } } : part;
      });
      blocks.push(...userBlocks(parts, message, answered, duplicates).blocks);
      continue;
    }
    if (answered.has(call.id)) {
      duplicates.count++;
      continue;
    }
    answered.add(call.id);
    const { text, isError } =
      typeof call.result === 'string' ? { text: call.result, isError: false } : responseText(obj(obj(call.result)?.functionResponse)?.response ?? call.result);
    blocks.push({ type: 'tool_result', tool_use_id: call.id, content: text, ...(isError || call.failed ? { is_error: true } : {}) });
  }
  return blocks;
}

function piecesOf(placed: PlacedMessage, answered: Set<string>, duplicates: { count: number }, sentAsUser: ReadonlySet<string>): Piece[] {
  const { message } = placed;
  if (message.type === 'user') {
    const parts = partsOf(message.content);
    const text = parts.map((part) => (typeof part.text === 'string' ? part.text : '')).join('');
    const hasResponse = parts.some((part) => obj(part.functionResponse) !== null);
    // Slash commands and `?` help are the CLI's, not the model's (the CLI's own context is sent).
    if (!hasResponse && isHarnessOrCommand(text) && !isSessionContext(text)) return [];
    const { blocks, kind } = userBlocks(parts, message, answered, duplicates);
    return blocks.length === 0 ? [] : [{ role: 'user', ref: message.id, kind, blocks }];
  }
  if (message.type !== 'gemini') return [];
  const pieces: Piece[] = [];
  const own = modelBlocks(message);
  if (own.length > 0) pieces.push({ role: 'assistant', ref: message.id, kind: 'assistant', blocks: own });
  const results = resultBlocks(message, answered, duplicates, sentAsUser);
  if (results.length > 0) pieces.push({ role: 'user', ref: resultsRef(message.id), kind: 'tool-result', blocks: results });
  return pieces;
}

/** The live messages in order → the engine's messages, one entry per message. */
export function liveMessages(placed: readonly PlacedMessage[], path?: string): LiveMessages {
  const messages: ApiMessage[] = [];
  const entries: ContextEntry[] = [];
  const diagnostics: Diagnostic[] = [];
  const answered = new Set<string>();
  const duplicates = { count: 0 };
  const sentAsUser = responseIdsOfUserMessages(placed);
  for (const item of placed) {
    for (const piece of piecesOf(item, answered, duplicates, sentAsUser)) {
      let message = messages.at(-1);
      let entry = entries.at(-1);
      if (message === undefined || entry === undefined || message.role !== piece.role) {
        message = { role: piece.role, content: [] };
        entry = {
          messageIndex: messages.length,
          kind: piece.kind,
          uuids: [],
          recordKinds: [],
          lines: [],
          timestamp: str(item.message.timestamp),
          toolUseIds: [],
          toolResultIds: [],
        };
        messages.push(message);
        entries.push(entry);
      } else if (piece.role === 'user') entry.kind = userKind(entry.kind, piece.kind);
      message.content.push(...piece.blocks);
      entry.uuids.push(piece.ref);
      entry.recordKinds.push(piece.kind);
      entry.lines.push(item.line);
      for (const block of piece.blocks) {
        if (block.type === 'tool_use') entry.toolUseIds.push(String(block.id));
        if (block.type === 'tool_result') entry.toolResultIds.push(String(block.tool_use_id));
      }
    }
  }
  if (duplicates.count > 0) {
    diagnostics.push({
      severity: 'info',
      code: 'duplicate-tool-result',
      message: `${duplicates.count} tool result(s) stored twice (a resume writes them back a second time); each is shown once`,
      ...(path !== undefined ? { path } : {}),
    });
  }
  return { messages, entries, diagnostics };
}

/** The call ids user messages answer with functionResponse parts. */
export function responseIdsOfUserMessages(placed: readonly PlacedMessage[]): Set<string> {
  const ids = new Set<string>();
  for (const { message } of placed) {
    if (message.type !== 'user') continue;
    for (const part of partsOf(message.content)) {
      const id = str(obj(part.functionResponse)?.id);
      if (id !== null) ids.add(id);
    }
  }
  return ids;
}

/** What a user turn mainly is: a prompt wins over a summary, a summary over tool results, those over harness text. */
function userKind(current: EntryKind, added: EntryKind): EntryKind {
  const rank: EntryKind[] = ['user', 'compact-summary', 'tool-result', 'attachment', 'meta'];
  return rank.indexOf(added) < rank.indexOf(current) ? added : current;
}
