// Whether a file is a Claude Code transcript, by what it holds: one of its first records is of a
// type Claude Code writes. (A Codex rollout's types — session_meta, response_item… — are not.)
import { firstRecords } from '../common/firstRecords';
import { KNOWN_TYPES } from './records';

/** Enough to pass the few bookkeeping lines a transcript may start with and still stay cheap. */
const RECORDS_LOOKED_AT = 20;

export async function isClaudeCodeTranscript(path: string): Promise<boolean> {
  const records = await firstRecords(path, RECORDS_LOOKED_AT);
  return records.some((record) => typeof record.type === 'string' && KNOWN_TYPES.has(record.type));
}
