// Tolerant JSONL reading. A transcript is appended to while we read it, by several CLI versions, and
// sometimes damaged (crash mid-write, disk full, an editor saving it as Latin-1). Every line that
// cannot be used becomes a diagnostic with its line number; nothing here throws on bad content.
import { isUtf8 } from 'node:buffer';
import type { FileHandle } from 'node:fs/promises';
import { openRegular } from '../result';
import type { Diagnostic } from '../types';
import { KNOWN_TYPES, obj, recordType, usageProblem, type LocatedRecord, type RawRecord } from './records';

const NEWLINE = 0x0a;
const BOM = Buffer.from([0xef, 0xbb, 0xbf]);
/**
 * Deepest nesting kept in a record. Claude Code's own records nest a dozen levels; anything past
 * this is cut, because recursive code further on (JSON.stringify, clones, token counts) would
 * overflow the stack on 100k-deep input.
 */
export const MAX_NESTING = 256;
const INVALID_UTF8 = 'Line is not valid UTF-8; undecodable bytes were replaced';
/** Forward reads go in 1 MiB chunks: few syscalls, bounded buffer growth. */
export const FORWARD_CHUNK_BYTES = 1 << 20;

/** Receives one complete line (without its newline); `bytes` is only valid during the call. */
export type LineVisitor = (bytes: Buffer, line: number, offset: number, end: number) => void;

/**
 * Cuts a byte stream into lines, remembering where each starts in the file. The unfinished last
 * line is kept (copied, so callers may reuse their read buffer) until its newline arrives: a
 * writer's partial append is normal while following, not an error.
 */
export class LineSplitter {
  private pieces: Buffer[] = [];
  private pendingLength = 0;
  private cursor: number;
  private nextLine: number;

  /** `startLine` 0 means line numbers are unknown (reading resumed mid-file): lines report 0. */
  constructor(startOffset = 0, startLine = 1) {
    this.cursor = startOffset;
    this.nextLine = startLine;
  }

  /** File offset where the unfinished line starts (equals the read position when there is none). */
  get pendingOffset(): number {
    return this.cursor - this.pendingLength;
  }

  get pendingBytes(): number {
    return this.pendingLength;
  }

  /** Line number the next completed line will get. */
  get line(): number {
    return this.nextLine;
  }

  push(chunk: Buffer, visit: LineVisitor): void {
    let start = 0;
    let newline = chunk.indexOf(NEWLINE, start);
    while (newline !== -1) {
      const end = this.cursor + newline + 1;
      if (this.pieces.length > 0) {
        // Only a line that straddles reads is concatenated; the rest are views into `chunk`.
        this.pieces.push(chunk.subarray(start, newline));
        const offset = this.pendingOffset;
        const whole = Buffer.concat(this.pieces, this.pendingLength + newline - start);
        this.pieces = [];
        this.pendingLength = 0;
        visit(whole, this.takeLineNumber(), offset, end);
      } else {
        visit(chunk.subarray(start, newline), this.takeLineNumber(), this.cursor + start, end);
      }
      start = newline + 1;
      newline = chunk.indexOf(NEWLINE, start);
    }
    if (start < chunk.length) {
      this.pieces.push(Buffer.from(chunk.subarray(start)));
      this.pendingLength += chunk.length - start;
    }
    this.cursor += chunk.length;
  }

  private takeLineNumber(): number {
    return this.nextLine === 0 ? 0 : this.nextLine++;
  }

  /** Hands out the unfinished line (for a final read of a file without a trailing newline). */
  takePending(): { bytes: Buffer; line: number; offset: number; end: number } | null {
    if (this.pendingLength === 0) return null;
    const result = { bytes: Buffer.concat(this.pieces, this.pendingLength), line: this.takeLineNumber(), offset: this.pendingOffset, end: this.cursor };
    this.pieces = [];
    this.pendingLength = 0;
    return result;
  }
}

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

export interface ScanOptions {
  start?: number;
  startLine?: number;
  /** Read up to this offset (a size the caller already took), not to the current end. */
  end?: number;
  /** Keep an unfinished last line for later (following) instead of handing it out. */
  keepPending?: boolean;
}

export interface ScanEnd {
  /** Offset where reading stopped: the end, or the start of an unfinished last line when `keepPending`. */
  nextOffset: number;
  nextLine: number;
  size: number;
}

export type ScanVisitor = (bytes: Buffer, line: number, offset: number, end: number, unterminated: boolean) => void;

/**
 * Visits every line of `path` from `start` to the current end. Without `keepPending`, a last line
 * lacking its newline is visited with `unterminated` set. Throws only on I/O errors (missing file,
 * permission); callers turn those into results.
 */
export async function scanLines(path: string, options: ScanOptions, visit: ScanVisitor): Promise<ScanEnd> {
  const handle = await openRegular(path);
  try {
    return await scanHandle(handle, options, visit);
  } finally {
    await handle.close();
  }
}

/** `scanLines` on a file the caller holds open (so it reads the same file as the caller's other reads). */
export async function scanHandle(handle: FileHandle, options: ScanOptions, visit: ScanVisitor): Promise<ScanEnd> {
  const splitter = new LineSplitter(options.start ?? 0, options.startLine ?? 1);
  const complete: LineVisitor = (bytes, line, offset, end) => visit(bytes, line, offset, end, false);
  const size = options.end ?? (await handle.stat()).size;
  const buffer = Buffer.allocUnsafe(Math.min(FORWARD_CHUNK_BYTES, Math.max(1, size)));
  let position = options.start ?? 0;
  while (position < size) {
    const { bytesRead } = await handle.read(buffer, 0, Math.min(buffer.length, size - position), position);
    if (bytesRead === 0) break;
    splitter.push(buffer.subarray(0, bytesRead), complete);
    position += bytesRead;
  }
  if (!options.keepPending) {
    const pending = splitter.takePending();
    if (pending !== null) visit(pending.bytes, pending.line, pending.offset, pending.end, true);
  }
  return { nextOffset: splitter.pendingOffset, nextLine: splitter.line, size };
}

/**
 * Gives diagnostics made while reading backwards (line numbers unknown) their 1-based line, by
 * counting the newlines before each one's offset. That reads the file up to the furthest of them,
 * a cost paid only when something is wrong.
 */
export async function numberLines(handle: FileHandle, diagnostics: readonly Diagnostic[]): Promise<void> {
  const unnumbered = diagnostics.filter((diagnostic) => diagnostic.line === undefined && diagnostic.offset !== undefined);
  unnumbered.sort((a, b) => (a.offset as number) - (b.offset as number));
  let position = 0;
  let newlines = 0;
  for (const diagnostic of unnumbered) {
    const offset = diagnostic.offset as number;
    newlines += await countNewlines(handle, position, offset);
    position = offset;
    diagnostic.line = newlines + 1;
  }
}

/** The bytes from `from` to `to` of an open file, fewer when it ends (or shrank) before `to`. */
export async function readRange(handle: FileHandle, from: number, to: number): Promise<Buffer> {
  const bytes = Buffer.allocUnsafe(Math.max(0, to - from));
  const { bytesRead } = await handle.read(bytes, 0, bytes.length, from);
  return bytes.subarray(0, bytesRead);
}

/** Newlines between byte offsets `from` and `to` of an open file: complete lines in that range. */
export async function countNewlines(handle: FileHandle, from: number, to: number): Promise<number> {
  const buffer = Buffer.allocUnsafe(Math.min(FORWARD_CHUNK_BYTES, Math.max(1, to - from)));
  let count = 0;
  for (let position = from; position < to; ) {
    const { bytesRead } = await handle.read(buffer, 0, Math.min(buffer.length, to - position), position);
    if (bytesRead === 0) break;
    const bytes = buffer.subarray(0, bytesRead);
    for (let at = bytes.indexOf(NEWLINE); at !== -1; at = bytes.indexOf(NEWLINE, at + 1)) count++;
    position += bytesRead;
  }
  return count;
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
  const end = await scanLines(path, options, (bytes, line, offset, stop, unterminated) => {
    // A cheap byte test first: parsing is most of the cost of reading a big file.
    if (options.wanted !== undefined && !options.wanted(bytes)) return;
    const record = parser.parse(bytes, line, offset, stop, unterminated);
    if (record) visit(record);
  });
  return { ...end, diagnostics: parser.diagnostics() };
}
