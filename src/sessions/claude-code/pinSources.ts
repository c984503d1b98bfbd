// Where the hooks look for constraints and open loops in a Claude Code transcript, record by record
// (memory stays that of one line): what the person typed, the agent's own text (open loops only),
// and what an earlier summary (Claude Code's own) carried forward. The whole file is read, not the
// live chain, so prompts a compaction already summarised away still count.
import type { PinSource } from '../connection';
import { forEachRecord } from './jsonl';
import { typedTexts } from './provenance';
import { contentBlocks, messageOf, type RawRecord } from './records';

const USER_TYPE = Buffer.from('"type":"user"');
const ASSISTANT_TYPE = Buffer.from('"type":"assistant"');

export async function forEachPinSource(path: string, visit: (source: PinSource) => void): Promise<void> {
  await forEachRecord(path, { wanted: (bytes) => bytes.indexOf(USER_TYPE) !== -1 || bytes.indexOf(ASSISTANT_TYPE) !== -1 }, ({ record, line }) => {
    const source = pinSourceOf(record, line);
    if (source !== undefined) visit(source);
  });
}

function pinSourceOf(record: RawRecord, line: number): PinSource | undefined {
  if (record.isCompactSummary === true) return { line, kind: 'summary', text: blockTexts(record).join('\n') };
  // Only what the person typed may be a constraint (see provenance.ts); the agent adds open loops only.
  if (record.type === 'assistant') return record.isSidechain === true ? undefined : { line, kind: 'agent', text: blockTexts(record).join('\n') };
  const typed = typedTexts(record).join('\n');
  return typed === '' ? undefined : { line, kind: 'typed', text: typed };
}

/** The text blocks of a record's message (a string content counts as one). */
function blockTexts(record: RawRecord): string[] {
  return contentBlocks(messageOf(record)).flatMap((block) => (block.type === 'text' && typeof block.text === 'string' ? [block.text] : []));
}
