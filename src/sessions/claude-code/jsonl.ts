// Tolerant JSONL reading. A transcript is appended to while we read it, by several CLI versions, and
// sometimes damaged (crash mid-write, disk full, an editor saving it as Latin-1). Every line that
// cannot be used becomes a diagnostic with its line number; nothing here throws on bad content.
import { isUtf8 } from 'node:buffer';
import { open, type FileHandle } from 'node:fs/promises';
import type { Diagnostic } from '../types';
import { KNOWN_TYPES, obj, recordType, type LocatedRecord, type RawRecord } from './records';

const NEWLINE = 0x0a;
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
    let start = 0;
    while (start < bytes.length && bytes[start] === 0) start++;
    if (start > 0) this.add('warning', 'nul-bytes', `${start} NUL byte(s) before the record (a crash left a hole in the file)`, line, offset);
    let stop = bytes.length;
    while (stop > start && (bytes[stop - 1] === 0x0d || bytes[stop - 1] === 0x20 || bytes[stop - 1] === 0x09)) stop--;
    if (stop === start) return null;
    const body = bytes.subarray(start, stop);
    if (!isUtf8(body)) this.add('warning', 'invalid-utf8', 'Line is not valid UTF-8; undecodable bytes were replaced', line, offset);
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
    const record = obj(value) as RawRecord | null;
    if (record === null) {
      this.add('error', 'not-an-object', 'Line is JSON but not an object; skipped', line, offset);
      return null;
    }
    const type = recordType(record) ?? '(none)';
    if (!KNOWN_TYPES.has(type)) {
      const seen = this.unknown.get(type);
      if (seen) seen.count++;
      else this.unknown.set(type, { count: 1, line });
    }
    return { record, line, offset, end };
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
  const handle = await open(path, 'r');
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
  const parser = new RecordParser(path);
  const records: LocatedRecord[] = [];
  const end = await scanLines(path, options, (bytes, line, offset, stop, unterminated) => {
    const record = parser.parse(bytes, line, offset, stop, unterminated);
    if (record) records.push(record);
  });
  return { ...end, records, diagnostics: parser.diagnostics() };
}
