// What Claude Code's system prompt and tools weigh, from a transcript that does not record them:
// the first call of the file measured its prompt, which held them and the records written before it
// (the first prompt, its reminders). Read from the file's head: after Claude Code's own compaction
// the live chain's first call measured more than the head (it re-attached recently read files), and
// a fork sends only the head again (engine/fromMessages.ts, `headResent`).
import { firstRecords } from '../common/firstRecords';
import { promptTokensOf } from '../common/usage';
import { estimateTokenizer } from '../../engine';
import { contentBlocks, isSidechain, messageOf, usageOf, type RawRecord } from './records';

/** Records looked at: the first call comes within a few dozen lines. */
const HEAD_RECORDS = 200;

/** The text a record put into the prompt, for the estimate subtracted from the first call's count. */
function promptText(record: RawRecord): string {
  const blocks = contentBlocks(messageOf(record));
  if (blocks.length > 0)
    return blocks
      .map((block) =>
        typeof block.text === 'string' ? block.text : typeof block.content === 'string' ? block.content : JSON.stringify(block.content ?? block.input ?? ''),
      )
      .join('\n');
  const attachment = record.attachment;
  return attachment === undefined ? '' : JSON.stringify(attachment);
}

/** The head the file's first call measured, or null when the head of the file holds no call. */
export async function headMeasuredFirst(path: string): Promise<number | null> {
  const records = (await firstRecords(path, HEAD_RECORDS)) as RawRecord[];
  const before: string[] = [];
  for (const record of records) {
    if (isSidechain(record)) continue;
    const usage = record.type === 'assistant' ? usageOf(record) : null;
    if (usage !== null && promptTokensOf(usage) > 0) {
      const head = promptTokensOf(usage) - estimateTokenizer.count(before.join('\n'));
      return head > 0 ? head : null;
    }
    if (record.type === 'user' || record.type === 'attachment') before.push(promptText(record));
  }
  return null;
}
