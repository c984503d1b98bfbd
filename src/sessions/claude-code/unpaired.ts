// Tool calls and results whose other half was never written. A walk that bridged a missing parent
// (chain.ts) may pass a response whose results the CLI never wrote, or a result whose call it never
// wrote (seen in a real 2.0.75 transcript). Such halves cannot be sent to the model again: left in,
// they would make every fork of the session an invalid request. So they are left out, and counted.
import { contentBlocks, messageOf, str, toolResultIds, toolUseIds, type LocatedRecord, type RawRecord } from './records';

export interface Paired {
  records: LocatedRecord[];
  /** Records left out: each held only tool calls without results, or only results without calls. */
  dropped: number;
}

/**
 * `records` without the lines that hold only unanswered tool calls or only results to calls not
 * among them. The newest response's calls may still be running: they stay.
 */
export function withoutUnpaired(records: readonly LocatedRecord[]): Paired {
  const uses = new Set<string>();
  const results = new Set<string>();
  let newest: string | null = null;
  for (const { record } of records) {
    const blocks = contentBlocks(messageOf(record));
    if (record.type === 'assistant') {
      toolUseIds(blocks).forEach((id) => uses.add(id));
      newest = str(messageOf(record)?.id) ?? newest;
    }
    if (record.type === 'user') toolResultIds(blocks).forEach((id) => results.add(id));
  }
  const kept = records.filter(({ record }) => !unpaired(record, uses, results, newest));
  return { records: kept, dropped: records.length - kept.length };
}

function unpaired(record: RawRecord, uses: ReadonlySet<string>, results: ReadonlySet<string>, newest: string | null): boolean {
  const blocks = contentBlocks(messageOf(record));
  if (blocks.length === 0) return false;
  if (record.type === 'assistant') {
    if (str(messageOf(record)?.id) === newest) return false;
    const ids = toolUseIds(blocks);
    return ids.length === blocks.length && ids.every((id) => !results.has(id));
  }
  if (record.type === 'user') {
    const ids = toolResultIds(blocks);
    return ids.length === blocks.length && ids.every((id) => !uses.has(id));
  }
  return false;
}
