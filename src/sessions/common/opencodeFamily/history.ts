// One OpenCode session's messages and parts, read from the database in the order OpenCode replays
// them (ids ascend with time), and the part of it the model sees now: OpenCode drops what precedes
// its newest finished compaction (a user message holding a `compaction` part, answered by an
// assistant message with `summary: true`), exactly as its own history filter does.
import { ok } from '../../result';
import type { Diagnostic, Result } from '../../types';
import { obj, parseJson, str, type MessageRow, type PartRow } from './rows';
import type { OpencodeStore } from '../opencodeStore';

/** A row left out, said once per row: which table, which row, which session, why. */
function dropped(table: string, id: unknown, sessionId: string, why: string): Diagnostic {
  return { severity: 'warning', code: 'invalid-json', message: `${table} ${typeof id === 'string' ? id : '(no id)'} of session ${sessionId} left out: ${why}` };
}

/** Why a row's `data` is unusable, or null when it is a JSON object. */
function dataProblem(text: unknown): string | null {
  if (typeof text !== 'string') return 'its data is not text';
  return parseJson(text) === null ? 'its data is not a JSON object' : null;
}

/** The session's messages with their parts; a row that cannot be read is left out and reported to `report`, the rest read. */
export function readMessages(store: OpencodeStore, sessionId: string, report: (diagnostic: Diagnostic) => void = () => undefined): Result<MessageRow[]> {
  const messages = store.messages(sessionId);
  if (!messages.ok) return messages;
  const parts = store.parts(sessionId);
  if (!parts.ok) return parts;
  const byMessage = new Map<string, PartRow[]>();
  for (const row of parts.value) {
    const id = str(row.id);
    const messageId = str(row.message_id);
    const data = parseJson(row.data);
    if (id === null || messageId === null || data === null) {
      report(dropped('part', row.id, sessionId, dataProblem(row.data) ?? 'it names no id or message'));
      continue;
    }
    const list = byMessage.get(messageId) ?? [];
    list.push({ id, data });
    byMessage.set(messageId, list);
  }
  const rows: MessageRow[] = [];
  for (const row of messages.value) {
    const id = str(row.id);
    const data = parseJson(row.data);
    if (id === null || data === null) {
      report(dropped('message', row.id, sessionId, dataProblem(row.data) ?? 'it has no id'));
      continue;
    }
    rows.push({ id, timeCreated: typeof row.time_created === 'number' ? row.time_created : 0, data, parts: byMessage.get(id) ?? [] });
  }
  return ok(rows);
}

export const isUser = (message: MessageRow): boolean => message.data.role === 'user';
export const isAssistant = (message: MessageRow): boolean => message.data.role === 'assistant';
export const isSummary = (message: MessageRow): boolean => isAssistant(message) && message.data.summary === true;
export const compactionPartOf = (message: MessageRow): PartRow | undefined =>
  isUser(message) ? message.parts.find((part) => part.data.type === 'compaction') : undefined;

/** A finished summary answers its compaction request (its `parentID`); an unfinished one does not count yet. */
function finishedSummaryParents(messages: readonly MessageRow[]): Set<string> {
  const parents = new Set<string>();
  for (const message of messages) {
    if (!isSummary(message) || obj(message.data.time)?.completed === undefined) continue;
    const parent = str(message.data.parentID);
    if (parent !== null) parents.add(parent);
  }
  return parents;
}

/** Index of the first message the model sees: the newest compaction request that was answered, else 0. */
export function liveStart(messages: readonly MessageRow[]): number {
  const answered = finishedSummaryParents(messages);
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index];
    if (message !== undefined && compactionPartOf(message) !== undefined && answered.has(message.id)) return index;
  }
  return 0;
}
