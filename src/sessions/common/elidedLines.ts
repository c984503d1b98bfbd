// JSON lines read from the start of a file with every long string value cut short, so that a line of
// many megabytes (a pasted base64 image, a whole file in a prompt) costs its bytes read once, not
// its size in memory. For samplers that need a record's shape and short texts (a title), never its
// full content. Agent-neutral.
import type { FileHandle } from 'node:fs/promises';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const NEWLINE = 0x0a;
const CHUNK_BYTES = 64 * 1024;

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

  constructor(private readonly limits: ElisionLimits) {
    this.out = Buffer.allocUnsafe(Math.min(limits.maxLineBytes, CHUNK_BYTES));
  }

  /** Feeds bytes; `line` receives each finished line's cut text (null when over `maxLineBytes`). */
  push(bytes: Buffer, line: (text: string | null) => boolean | void): boolean {
    for (let index = 0; index < bytes.length; index++) {
      const byte = bytes[index] as number;
      if (byte === NEWLINE) {
        if (line(this.finishLine()) === true) return true;
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
      if (!this.eliding && this.stringBytes >= this.limits.keepBytes && (byte & 0xc0) !== 0x80) this.eliding = true;
      if (this.eliding) {
        // Jump to the next quote or backslash: a long string is skipped at indexOf speed.
        const next = nextSpecial(bytes, index);
        if (next > index) {
          index = next - 1;
          continue;
        }
      }
      if (byte === BACKSLASH) this.escape = 1;
      this.stringBytes++;
      if (!this.eliding) this.append(byte);
    }
    return false;
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

  private finishLine(): string | null {
    const text = this.overflow ? null : this.out.toString('utf8', 0, this.length);
    this.length = 0;
    this.overflow = false;
    this.inString = false;
    this.escape = 0;
    return text;
  }
}

/** Index of the next quote, backslash or newline at or after `from` (the length when none). */
function nextSpecial(bytes: Buffer, from: number): number {
  let next = bytes.length;
  for (const special of [QUOTE, BACKSLASH, NEWLINE]) {
    const at = bytes.indexOf(special, from);
    if (at !== -1 && at < next) next = at;
  }
  return next;
}

/**
 * Reads `handle` from the start, at most `budgetBytes`, handing each whole line's cut text (or null
 * for a line too long even cut) to `visit` until it returns true. A last line without its newline
 * is not handed over: it may still be being written.
 */
export async function readElidedLines(handle: FileHandle, budgetBytes: number, limits: ElisionLimits, visit: (text: string | null) => boolean | void): Promise<void> {
  const eliding = new StringEliding(limits);
  const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
  for (let position = 0; position < budgetBytes; ) {
    const { bytesRead } = await handle.read(buffer, 0, Math.min(CHUNK_BYTES, budgetBytes - position), position);
    if (bytesRead === 0) return;
    if (eliding.push(buffer.subarray(0, bytesRead), visit)) return;
    position += bytesRead;
  }
}
