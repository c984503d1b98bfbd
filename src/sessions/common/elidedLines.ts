// JSON lines read from the start of a file with every long string value cut short, so that a line of
// many megabytes (a pasted base64 image, a whole file in a prompt) costs its bytes read once, not
// its size in memory. For samplers that need a record's shape and short texts (a title), never its
// full content. Agent-neutral.
import type { FileHandle } from 'node:fs/promises';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const NEWLINE = 0x0a;
const CHUNK_BYTES = 64 * 1024;

/** One line's cut text (null: too long even cut) and the file offset just past it; true stops reading. */
export type LineVisitor = (text: string | null, end: number) => boolean | void;

export interface ElisionLimits {
  /** Bytes kept of each string (keys too: keep more than the longest key), ending on a whole character. */
  keepBytes: number;
  /** A line whose cut text is still longer than this is skipped (yielded as null). */
  maxLineBytes: number;
}

/**
 * Cuts a byte stream into lines and each line's long strings to `keepBytes`. JSON strings hold no raw
 * newline, so every newline ends a line. A string is cut only between characters and outside an
 * escape, so the cut text stays valid JSON with the same structure.
 */
export class StringEliding {
  private out: Buffer;
  private length = 0;
  private overflow = false;
  private inString = false;
  /** 0 outside an escape; else the bytes still to come of it (`\n`: 1, `\uXXXX`: 5). */
  private escape = 0;
  private stringBytes = 0;
  private eliding = false;
  /** Bytes pushed before the current chunk. */
  private consumed = 0;

  constructor(private readonly limits: ElisionLimits) {
    this.out = Buffer.allocUnsafe(Math.min(limits.maxLineBytes, CHUNK_BYTES));
  }

  /**
   * Feeds bytes; `line` receives each finished line's cut text (null when over `maxLineBytes`) and
   * the offset just past its newline, and may return true to stop.
   */
  push(bytes: Buffer, line: LineVisitor): boolean {
    const base = this.consumed;
    this.consumed += bytes.length;
    for (let index = 0; index < bytes.length; index++) {
      // At a line's start, a line no longer than `keepBytes` has no string to cut: handed over as
      // it is, found by the native search rather than this loop, which a new process runs cold.
      if (this.length === 0 && !this.overflow && !this.inString) {
        const newline = bytes.indexOf(NEWLINE, index);
        if (newline !== -1 && newline - index <= Math.min(this.limits.keepBytes, this.limits.maxLineBytes)) {
          if (line(bytes.toString('utf8', index, newline), base + newline + 1) === true) return true;
          index = newline;
          continue;
        }
      }
      const byte = bytes[index] as number;
      if (byte === NEWLINE) {
        if (line(this.finishLine(), base + index + 1) === true) return true;
        continue;
      }
      if (!this.inString) {
        if (byte === QUOTE) this.startString();
        this.append(byte);
        continue;
      }
      if (this.escape > 0) {
        // `\u` needs four more bytes; any other escape ends here.
        this.escape = this.escape === 1 && byte === 0x75 ? 4 : this.escape - 1;
        if (!this.eliding) this.append(byte);
        continue;
      }
      if (byte === QUOTE) {
        this.inString = false;
        this.append(byte);
        continue;
      }
      if (byte === BACKSLASH) {
        this.escape = 1;
        if (!this.eliding) this.append(byte);
        continue;
      }
      if (!this.eliding && this.stringBytes >= this.limits.keepBytes && (byte & 0xc0) !== 0x80) this.eliding = true;
      index = this.eliding ? this.skip(bytes, index) : this.copyRun(bytes, index);
    }
    return false;
  }

  /**
   * Copies plain characters from `from` up to the next quote or backslash or the keep limit (past
   * it, one byte at a time to the end of a character); returns the index of the last one copied.
   */
  private copyRun(bytes: Buffer, from: number): number {
    const limit = Math.min(bytes.length, from + Math.max(1, this.limits.keepBytes - this.stringBytes));
    let end = from;
    while (end < limit) {
      const byte = bytes[end];
      if (byte === QUOTE || byte === BACKSLASH || byte === NEWLINE) break;
      end++;
    }
    this.appendRun(bytes, from, end);
    this.stringBytes += end - from;
    return end - 1;
  }

  /**
   * Skips a cut string's bytes from `from` (not in an escape) to its closing quote: the next quote
   * preceded by an even run of backslashes. Returns the index of the last byte skipped.
   */
  private skip(bytes: Buffer, from: number): number {
    for (let at = from; ;) {
      const quote = bytes.indexOf(QUOTE, at);
      const stop = quote === -1 ? bytes.length : quote;
      let backslashes = 0;
      while (stop - 1 - backslashes >= at && bytes[stop - 1 - backslashes] === BACKSLASH) backslashes++;
      if (quote === -1) {
        // The chunk ends inside the string: an odd run escapes the next chunk's first byte.
        this.escape = backslashes % 2;
        return bytes.length - 1;
      }
      if (backslashes % 2 === 0) return quote - 1;
      at = quote + 1;
    }
  }

  private startString(): void {
    this.inString = true;
    this.escape = 0;
    this.stringBytes = 0;
    this.eliding = false;
  }

  private append(byte: number): void {
    if (this.overflow) return;
    if (this.length >= this.limits.maxLineBytes) {
      this.overflow = true;
      return;
    }
    if (this.length === this.out.length) {
      const grown = Buffer.allocUnsafe(Math.min(this.limits.maxLineBytes, this.out.length * 2));
      this.out.copy(grown, 0, 0, this.length);
      this.out = grown;
    }
    this.out[this.length++] = byte;
  }

  private appendRun(bytes: Buffer, from: number, to: number): void {
    if (this.overflow) return;
    if (this.length + (to - from) > this.limits.maxLineBytes) {
      this.overflow = true;
      return;
    }
    if (this.length + (to - from) > this.out.length) {
      const grown = Buffer.allocUnsafe(Math.min(this.limits.maxLineBytes, Math.max(this.out.length * 2, this.length + (to - from))));
      this.out.copy(grown, 0, 0, this.length);
      this.out = grown;
    }
    this.length += bytes.copy(this.out, this.length, from, to);
  }

  private finishLine(): string | null {
    const text = this.overflow ? null : this.out.toString('utf8', 0, this.length);
    this.length = 0;
    this.overflow = false;
    this.inString = false;
    this.escape = 0;
    return text;
  }
}

/**
 * Reads `handle` from the start, at most `budgetBytes`, handing each whole line's cut text (or null
 * for a line too long even cut) to `visit` until it returns true. A last line without its newline
 * is not handed over: it may still be being written.
 */
export async function readElidedLines(handle: FileHandle, budgetBytes: number, limits: ElisionLimits, visit: LineVisitor): Promise<void> {
  const eliding = new StringEliding(limits);
  const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
  for (let position = 0; position < budgetBytes;) {
    const { bytesRead } = await handle.read(buffer, 0, Math.min(CHUNK_BYTES, budgetBytes - position), position);
    if (bytesRead === 0) return;
    if (eliding.push(buffer.subarray(0, bytesRead), visit)) return;
    position += bytesRead;
  }
}
