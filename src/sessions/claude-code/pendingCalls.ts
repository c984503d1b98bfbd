// A transcript read while Claude Code is running a tool (or left by a crash or an interrupt before
// the result was written) ends with a `tool_use` whose `tool_result` does not exist yet. The API
// refuses a call without its result, so a fork closes each such call as Claude Code closes one it
// finds unanswered when it resumes: a user record right after the response, with an error result
// that says the outcome is unknown. The fork's notes say which calls were closed.
import { contentBlocks, messageOf, str, toolResultIds, toolUseIds, type RawRecord } from './records';

/** Our words for the missing result: the agent must not assume the call ran, nor that it did not. */
export const PENDING_RESULT_TEXT =
  '[No result was recorded for this call: Context Lens copied the session while the call was still running or after it was interrupted. Whether it took effect is unknown; check before relying on it or running it again.]';

/** Tool calls in `records` that have no result anywhere in `source` (the whole transcript). */
function pendingIds(records: readonly RawRecord[], source: readonly RawRecord[]): Set<string> {
  const answered = new Set(source.filter((record) => record.type === 'user').flatMap((record) => toolResultIds(contentBlocks(messageOf(record)))));
  return new Set(
    records
      .filter((record) => record.type === 'assistant')
      .flatMap((record) => toolUseIds(contentBlocks(messageOf(record))))
      .filter((id) => !answered.has(id)),
  );
}

const messageIdOf = (record: RawRecord): string | null => str(messageOf(record)?.id);

export interface ClosedCalls {
  records: RawRecord[];
  /** One line per closed call, for the fork's notes. */
  notes: string[];
}

/**
 * `records` with a result record after every response whose calls have none in `source`. Claude
 * Code writes one record per content block of a response (the same message id): the result goes
 * after the response's last record, as the API wants it in the very next message.
 */
export function closePendingCalls(records: readonly RawRecord[], source: readonly RawRecord[], envelopeFields: readonly string[]): ClosedCalls {
  const pending = pendingIds(records, source);
  if (pending.size === 0) return { records: [...records], notes: [] };
  const out: RawRecord[] = [];
  const notes: string[] = [];
  let waiting: { id: string; name: string }[] = [];
  let response: RawRecord = {};
  const flush = (): void => {
    if (waiting.length === 0) return;
    out.push({
      // Where and with which version the response was written, so the record looks like its neighbours.
      ...Object.fromEntries(envelopeFields.filter((field) => response[field] !== undefined).map((field) => [field, response[field]])),
      type: 'user',
      message: { role: 'user', content: waiting.map(({ id }) => ({ type: 'tool_result', tool_use_id: id, content: PENDING_RESULT_TEXT, is_error: true })) },
    });
    for (const { id, name } of waiting)
      notes.push(`The source ends mid-call: ${name} (${id}) had no result yet; the fork closes it with an error result saying its outcome is unknown.`);
    waiting = [];
  };
  records.forEach((record, index) => {
    out.push(record);
    if (record.type === 'assistant') {
      response = record;
      for (const block of contentBlocks(messageOf(record))) {
        const id = block.type === 'tool_use' ? str(block.id) : null;
        if (id !== null && pending.has(id)) waiting.push({ id, name: str(block.name) ?? 'tool' });
      }
    }
    const next = records[index + 1];
    const sameResponse = next?.type === 'assistant' && record.type === 'assistant' && messageIdOf(next) !== null && messageIdOf(next) === messageIdOf(record);
    if (!sameResponse) flush();
  });
  return { records: out, notes };
}
