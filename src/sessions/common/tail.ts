// Reading a transcript backwards. The gauge needs only the newest usage record, which sits near the
// end of a file that can grow past 100 MB, so we read fixed-size blocks from the end and hand out
// lines newest first: the cost follows the distance to what we look for, not the file size.
import type { FileHandle } from 'node:fs/promises';

/** 64 KiB: a typical turn's lines fit in one or two blocks; larger blocks only add copying. */
export const TAIL_BLOCK_BYTES = 64 * 1024;
/**
 * A read that goes on past the first block doubles each next one up to this: a live context
 * megabytes long then costs a dozen reads, not one round trip to the thread pool per 64 KiB.
 */
const MAX_GROWN_BLOCK_BYTES = 1024 * 1024;
const NEWLINE = 0x0a;

/**
 * Longer lines are skipped, not gathered: no record we read from the end is this long, and a file
 * with no newline for gigabytes (a hole, garbage) must not become one buffer.
 */
export const MAX_TAIL_LINE_BYTES = 64 * 1024 * 1024;

export interface TailLine {
  /** Line content without its newline; empty for an oversized line. */
  bytes: Buffer;
  /** Where the line starts; for an oversized line given up on (see GIVE_UP_FACTOR), where reading stopped. */
  offset: number;
  /** Offset just past the newline (or the end of file for an unterminated last line). */
  end: number;
  /** False only for a last line with no newline yet: possibly a write in progress. */
  terminated: boolean;
  /** Longer than the cap: its bytes were not kept. */
  oversized?: boolean;
}

/**
 * A line still going this far back from its end ends the read: finding its start means reading
 * every byte before it (a 2 GB file with no newline would be read whole). The line is handed out
 * as oversized from where reading stopped, and nothing older is read.
 */
const GIVE_UP_FACTOR = 2;

export interface BackwardOptions {
  /** Every block this size (tests use small ones); by default 64 KiB, growing as reading goes on. */
  blockBytes?: number;
  /** Lines longer than this come out empty with `oversized` set (their bytes are read, never held). */
  maxLineBytes?: number;
  /** Nothing before this offset is read: a caller that gives up past some distance stops there. */
  floor?: number;
}

/**
 * Yields the lines of the first `size` bytes of the file, last line first. A line longer than a
 * block is gathered from its pieces and joined once, when its start is found.
 */
export async function* linesBackward(handle: FileHandle, size: number, options: BackwardOptions = {}): AsyncGenerator<TailLine> {
  let blockBytes = options.blockBytes ?? TAIL_BLOCK_BYTES;
  const grownBytes = options.blockBytes ?? MAX_GROWN_BLOCK_BYTES;
  const maxLineBytes = options.maxLineBytes ?? MAX_TAIL_LINE_BYTES;
  const floor = Math.max(0, options.floor ?? 0);
  let pieces: Buffer[] = [];
  let gathered = 0;
  let oversized = false;
  let segmentEnd = size;
  let terminated = false;
  let position = size;
  const lineOf = (bytes: Buffer, offset: number): TailLine => {
    const line: TailLine = oversized
      ? { bytes: Buffer.alloc(0), offset, end: terminated ? segmentEnd + 1 : segmentEnd, terminated, oversized }
      : { bytes, offset, end: terminated ? segmentEnd + 1 : segmentEnd, terminated };
    pieces = [];
    gathered = 0;
    oversized = false;
    return line;
  };
  while (position > floor) {
    const start = Math.max(floor, position - blockBytes);
    // A fresh buffer per block: pieces of a long line keep referring to it until the line is joined.
    const block = Buffer.allocUnsafe(position - start);
    const { bytesRead } = await handle.read(block, 0, block.length, start);
    if (bytesRead < block.length) throw new Error(`File shrank while reading backwards (at ${start})`);
    let right = block.length;
    let newline = right > 0 ? block.lastIndexOf(NEWLINE, right - 1) : -1;
    while (newline !== -1) {
      const head = block.subarray(newline + 1, right);
      oversized ||= gathered + head.length > maxLineBytes;
      const line = lineOf(oversized ? head : joinPieces(head, pieces), start + newline + 1);
      // The empty "line" after a final newline is not a line.
      if (terminated || line.bytes.length > 0 || line.oversized) yield line;
      segmentEnd = start + newline;
      terminated = true;
      right = newline;
      newline = right > 0 ? block.lastIndexOf(NEWLINE, right - 1) : -1;
    }
    if (right > 0) {
      gathered += right;
      if (gathered > maxLineBytes) {
        oversized = true;
        pieces = [];
      } else pieces.unshift(block.subarray(0, right));
    }
    position = start;
    blockBytes = Math.min(grownBytes, blockBytes * 2);
    if (gathered > GIVE_UP_FACTOR * maxLineBytes && position > floor) {
      yield lineOf(Buffer.alloc(0), position);
      return;
    }
  }
  // Stopped at the floor: the line there may start earlier, so it is not handed out.
  if (floor > 0) return;
  const first = lineOf(joinPieces(Buffer.alloc(0), pieces), 0);
  if (terminated || first.bytes.length > 0 || first.oversized) yield first;
}

function joinPieces(head: Buffer, rest: Buffer[]): Buffer {
  if (rest.length === 0) return head;
  return Buffer.concat([head, ...rest]);
}
