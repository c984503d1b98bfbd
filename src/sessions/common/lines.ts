// Lines of an append-only file, read by byte ranges: cut into lines with their offsets (a partial
// last line waits for its newline), scanned forward in chunks, counted. Agent-neutral: each adapter
// parses the lines by its own record rules.
import type { FileHandle } from 'node:fs/promises';
import { openRegular } from '../result';
import type { Diagnostic } from '../types';

const NEWLINE = 0x0a;
/** Forward reads go in 1 MiB chunks: few syscalls, bounded buffer growth. */
export const FORWARD_CHUNK_BYTES = 1 << 20;

/**
 * Lines longer than this are skipped: a transcript record is at most a few megabytes (a pasted
 * image), and the readers must stay bounded on a file that never ends its line.
 */
export const MAX_LINE_BYTES = 64 * 1024 * 1024;

/**
 * A line still going this far past its start ends the read: a line is only found by scanning for
 * its newline, and a file with none for gigabytes (a sparse hole, garbage) would be read whole on
 * every pass. Past twice the cap it is not a transcript any more; the rest is reported as skipped.
 */
export const GIVE_UP_LINE_BYTES = 2 * MAX_LINE_BYTES;

/** Newlines are counted for diagnostics' line numbers only this far in; past it they keep their byte offset. */
export const MAX_NUMBERED_BYTES = 256 * 1024 * 1024;

/** Hears of a line skipped for its length. */
export type OversizedVisitor = (line: number, offset: number, end: number) => void;

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
  /** The unfinished line passed the cap: its bytes are no longer kept, only counted. */
  private skipping = false;

  /**
   * `startLine` 0 means line numbers are unknown (reading resumed mid-file): lines report 0. A line
   * longer than `maxLineBytes` is not gathered (a file with no newline for gigabytes must not become
   * one buffer): `oversized` hears of it instead of the visitor.
   */
  constructor(
    startOffset = 0,
    startLine = 1,
    private readonly oversized: OversizedVisitor = () => undefined,
    private readonly maxLineBytes = MAX_LINE_BYTES,
  ) {
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
      if (this.skipping || this.pendingLength + newline - start > this.maxLineBytes) {
        this.skipLine(this.pendingLength > 0 ? this.pendingOffset : this.cursor + start, end);
      } else if (this.pieces.length > 0) {
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
      this.pendingLength += chunk.length - start;
      if (this.pendingLength > this.maxLineBytes) {
        this.skipping = true;
        this.pieces = [];
      } else this.pieces.push(Buffer.from(chunk.subarray(start)));
    }
    this.cursor += chunk.length;
  }

  /** Reports the line from `offset` to `end` as too long and forgets what was held of it. */
  private skipLine(offset: number, end: number): void {
    this.pieces = [];
    this.pendingLength = 0;
    this.skipping = false;
    this.oversized(this.takeLineNumber(), offset, end);
  }

  private takeLineNumber(): number {
    return this.nextLine === 0 ? 0 : this.nextLine++;
  }

  /** Gives up on the unfinished line: reported as oversized up to `end`, never gathered further. */
  abandon(end: number): void {
    if (this.pendingLength === 0) return;
    this.skipLine(this.pendingOffset, end);
  }

  /** Hands out the unfinished line (for a final read of a file without a trailing newline). */
  takePending(): { bytes: Buffer; line: number; offset: number; end: number } | null {
    if (this.pendingLength === 0) return null;
    if (this.skipping) {
      this.skipLine(this.pendingOffset, this.cursor);
      return null;
    }
    const result = { bytes: Buffer.concat(this.pieces, this.pendingLength), line: this.takeLineNumber(), offset: this.pendingOffset, end: this.cursor };
    this.pieces = [];
    this.pendingLength = 0;
    return result;
  }
}

export interface ScanOptions {
  start?: number;
  startLine?: number;
  /** Read up to this offset (a size the caller already took), not to the current end. */
  end?: number;
  /** Keep an unfinished last line for later (following) instead of handing it out. */
  keepPending?: boolean;
  /** Hears of lines skipped for being longer than MAX_LINE_BYTES (and of one past GIVE_UP_LINE_BYTES, up to the end). */
  oversized?: OversizedVisitor;
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
  const splitter = new LineSplitter(options.start ?? 0, options.startLine ?? 1, options.oversized);
  const complete: LineVisitor = (bytes, line, offset, end) => visit(bytes, line, offset, end, false);
  const size = options.end ?? (await handle.stat()).size;
  const buffer = Buffer.allocUnsafe(Math.min(FORWARD_CHUNK_BYTES, Math.max(1, size)));
  let position = options.start ?? 0;
  while (position < size) {
    const { bytesRead } = await handle.read(buffer, 0, Math.min(buffer.length, size - position), position);
    if (bytesRead === 0) break;
    splitter.push(buffer.subarray(0, bytesRead), complete);
    position += bytesRead;
    if (splitter.pendingBytes > GIVE_UP_LINE_BYTES) {
      // No newline for this long: the rest of the range is one skipped line, not read.
      splitter.abandon(size);
      return { nextOffset: size, nextLine: splitter.line, size };
    }
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
    // Counting gigabytes of newlines for a line number is not worth it: the offset stays.
    if (offset > MAX_NUMBERED_BYTES) break;
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

/**
 * The bytes just before `end` (fewer near the file's start): kept with what was read up to `end`, they
 * tell on a later read whether the file was only appended to since (they are still there) or rewritten.
 */
export function sealBefore(handle: FileHandle, end: number): Promise<Buffer> {
  return readRange(handle, Math.max(0, end - SEAL_BYTES), end);
}

const SEAL_BYTES = 256;

/** Newlines between byte offsets `from` and `to` of an open file: complete lines in that range. */
export async function countNewlines(handle: FileHandle, from: number, to: number): Promise<number> {
  const buffer = Buffer.allocUnsafe(Math.min(FORWARD_CHUNK_BYTES, Math.max(1, to - from)));
  let count = 0;
  for (let position = from; position < to;) {
    const { bytesRead } = await handle.read(buffer, 0, Math.min(buffer.length, to - position), position);
    if (bytesRead === 0) break;
    const bytes = buffer.subarray(0, bytesRead);
    for (let at = bytes.indexOf(NEWLINE); at !== -1; at = bytes.indexOf(NEWLINE, at + 1)) count++;
    position += bytesRead;
  }
  return count;
}
