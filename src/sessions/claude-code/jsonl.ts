// Tolerant JSONL reading. A transcript is appended to while we read it, by several CLI versions, and
// sometimes damaged (crash mid-write, disk full, an editor saving it as Latin-1). Every line that
// cannot be used becomes a diagnostic with its line number; nothing here throws on bad content.
import { isUtf8 } from 'node:buffer';
import { MAX_LINE_BYTES, scanLines, type ScanEnd, type ScanOptions } from '../common/lines';
import type { Diagnostic } from '../types';
import { KNOWN_TYPES, obj, recordType, usageProblem, type LocatedRecord, type RawRecord } from './records';

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);
/**
 * Deepest nesting kept in a record. Claude Code's own records nest a dozen levels; anything past
 * this is cut, because recursive code further on (JSON.stringify, clones, token counts) would
 * overflow the stack on 100k-deep input.
 */
export const MAX_NESTING = 256;
const INVALID_UTF8 = 'Line is not valid UTF-8; undecodable bytes were replaced';

/**
 * Parses lines into records and collects what went wrong. Unknown record types are tolerated and
 * counted; `diagnostics()` reports each unknown type once with its count.
 */
export class RecordParser {
  private readonly found: Diagnostic[] = [];
  private readonly unknown = new Map<string, { count: number; line: number }>();

  constructor(private readonly path?: string) {}

  /**
   * Parses one line; returns null (with a diagnostic unless the line is blank) when unusable.
   * `unterminated`: the line had no newline at end of file, so bad JSON there is a torn write.
   */
  parse(bytes: Buffer, line: number, offset: number, end: number, unterminated = false): LocatedRecord | null {
    // A byte-order mark (an editor saved the file) is not part of the first record.
    let start = offset === 0 && bytes.subarray(0, BOM.length).equals(BOM) ? BOM.length : 0;
    const first = start;
    while (start < bytes.length && bytes[start] === 0) start++;
    if (start > first) this.add('warning', 'nul-bytes', `${start - first} NUL byte(s) before the record (a crash left a hole in the file)`, line, offset);
    let stop = bytes.length;
    while (stop > start && (bytes[stop - 1] === 0x0d || bytes[stop - 1] === 0x20 || bytes[stop - 1] === 0x09)) stop--;
    if (stop === start) return null;
    const body = bytes.subarray(start, stop);
    this.checkEncoding(body, line, offset);
    let value: unknown;
    try {
      value = JSON.parse(body.toString('utf8'));
    } catch (error) {
      if (unterminated) {
        this.add('warning', 'truncated-line', `Last line is incomplete (${bytes.length} bytes without a newline); ignored`, line, offset);
        return null;
      }
      this.add('error', 'invalid-json', `Line is not valid JSON (${error instanceof Error ? error.message : String(error)}); skipped`, line, offset);
      return null;
    }
    // Only a line of at least twice the limit in bytes can nest that deep: most lines skip the walk.
    if (body.length > 2 * MAX_NESTING && flatten(value, MAX_NESTING)) {
      this.add('warning', 'too-deep', `Record nests deeper than ${MAX_NESTING} levels; the deeper part was replaced by a placeholder`, line, offset);
    }
    const record = obj(value) as RawRecord | null;
    if (record === null) {
      this.add('error', 'not-an-object', 'Line is JSON but not an object; skipped', line, offset);
      return null;
    }
    const usage = usageProblem(record);
    if (usage !== null) this.add('warning', 'invalid-usage', `${usage}; this response's usage is ignored`, line, offset);
    const type = recordType(record) ?? '(none)';
    if (!KNOWN_TYPES.has(type)) {
      const seen = this.unknown.get(type);
      if (seen) seen.count++;
      else this.unknown.set(type, { count: 1, line });
    }
    return { record, line, offset, end };
  }

  /** Notes a line that is not valid UTF-8 (decoding replaces the bad bytes, the rest stays usable). */
  checkEncoding(bytes: Buffer, line: number, offset: number): void {
    if (!isUtf8(bytes)) this.add('warning', 'invalid-utf8', INVALID_UTF8, line, offset);
  }

  add(severity: Diagnostic['severity'], code: string, message: string, line?: number, offset?: number): void {
    const diagnostic: Diagnostic = { severity, code, message };
    if (line !== undefined && line > 0) diagnostic.line = line;
    if (offset !== undefined) diagnostic.offset = offset;
    if (this.path !== undefined) diagnostic.path = this.path;
    this.found.push(diagnostic);
  }

  /** In file order, also when lines were parsed newest first; then each unknown record type once. */
  diagnostics(): Diagnostic[] {
    const found = [...this.found].sort((a, b) => (a.offset ?? 0) - (b.offset ?? 0));
    const unknown: Diagnostic[] = [...this.unknown].map(([type, { count, line }]) => ({
      severity: 'info',
      code: 'unknown-record-type',
      message: `${count} record(s) of unknown type '${type}' ignored`,
      ...(line > 0 ? { line } : {}),
      ...(this.path !== undefined ? { path: this.path } : {}),
    }));
    return [...found, ...unknown];
  }
}

/**
 * Replaces every object or array nested deeper than `limit` by a placeholder string, walking
 * without recursion. Returns whether anything was replaced.
 */
function flatten(root: unknown, limit: number): boolean {
  let cut = false;
  const stack: Array<{ value: Record<string, unknown> | unknown[]; depth: number }> = typeof root === 'object' && root !== null ? [{ value: root as Record<string, unknown>, depth: 1 }] : [];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const container = next.value as Record<string, unknown>;
    for (const key of Object.keys(container)) {
      const child = container[key];
      if (typeof child !== 'object' || child === null) continue;
      if (next.depth >= limit) {
        container[key] = `[nested deeper than ${limit} levels: removed]`;
        cut = true;
      } else stack.push({ value: child as Record<string, unknown>, depth: next.depth + 1 });
    }
  }
  return cut;
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
  const oversized = (line: number, offset: number): void => parser.add('warning', 'oversized-line', `Line is over ${MAX_LINE_BYTES} bytes; skipped`, line, offset);
  const end = await scanLines(path, { ...options, oversized }, (bytes, line, offset, stop, unterminated) => {
    // A cheap byte test first: parsing is most of the cost of reading a big file.
    if (options.wanted !== undefined && !options.wanted(bytes)) return;
    const record = parser.parse(bytes, line, offset, stop, unterminated);
    if (record) visit(record);
  });
  return { ...end, diagnostics: parser.diagnostics() };
}
