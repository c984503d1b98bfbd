// Tolerant parsing of chat lines, with the rules every JSON-lines agent shares (common/jsonRecords.ts):
// a chat file is appended to while we read it and can be damaged, so every line that cannot be used
// becomes a diagnostic with its place and nothing here throws on bad content.
import { JsonRecordParser, type RecordDialect } from '../common/jsonRecords';
import type { ChatRecord } from './records';

// Chat records are told apart by their keys, not by a `type` field (see records.ts), so no record
// types are counted as unknown.
const CHAT_DIALECT: RecordDialect<ChatRecord> = { noun: 'chat record(s)' };

export class ChatLineParser extends JsonRecordParser<ChatRecord> {
  constructor(path?: string) {
    super(CHAT_DIALECT, path);
  }
}
