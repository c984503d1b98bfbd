// Reading a transcript's records forwards: the shared tolerant line parser (common/jsonRecords.ts)
// with Claude Code's record types and its one record-level check, an assistant usage that cannot be
// a reading.
import { MAX_LINE_BYTES, scanLines, type ScanEnd, type ScanOptions } from '../common/lines';
import { JsonRecordParser, type RecordDialect } from '../common/jsonRecords';
import type { Diagnostic } from '../types';
import { KNOWN_TYPES, usageProblem, type LocatedRecord, type RawRecord } from './records';

const TRANSCRIPT: RecordDialect<RawRecord> = {
  knownTypes: KNOWN_TYPES,
  noun: 'record(s)',
  warning: (record) => {
    const problem = usageProblem(record);
    return problem === null ? null : { code: 'invalid-usage', message: `${problem}; this response's usage is ignored` };
  },
};

/** The line parser for transcripts; see JsonRecordParser. */
export class RecordParser extends JsonRecordParser<RawRecord> {
  constructor(path?: string) {
    super(TRANSCRIPT, path);
  }
}

export interface ForwardRead extends ScanEnd {
  records: LocatedRecord[];
  diagnostics: Diagnostic[];
}

/** Parses the records of `path` from `start` to the current end (see `scanLines`). */
export async function readForward(path: string, options: ScanOptions = {}): Promise<ForwardRead> {
  const records: LocatedRecord[] = [];
  const end = await forEachRecord(path, options, (record) => void records.push(record));
  return { ...end, records };
}

/**
 * Hands each record of `path` to `visit` without keeping them: memory stays that of one line, for
 * readers that need a little of every record of a file that may hold millions. `wanted` skips
 * lines (unparsed, undiagnosed) that cannot hold what the reader looks for.
 */
export async function forEachRecord(
  path: string,
  options: ScanOptions & { wanted?: (bytes: Buffer) => boolean },
  visit: (located: LocatedRecord) => void,
): Promise<ScanEnd & { diagnostics: Diagnostic[] }> {
  const parser = new RecordParser(path);
  const oversized = (line: number, offset: number): void =>
    parser.add('warning', 'oversized-line', `Line is over ${MAX_LINE_BYTES} bytes; skipped`, line, offset);
  const end = await scanLines(path, { ...options, oversized }, (bytes, line, offset, stop, unterminated) => {
    // A cheap byte test first: parsing is most of the cost of reading a big file.
    if (options.wanted !== undefined && !options.wanted(bytes)) return;
    const record = parser.parse(bytes, line, offset, stop, unterminated);
    if (record) visit(record);
  });
  return { ...end, diagnostics: parser.diagnostics() };
}
