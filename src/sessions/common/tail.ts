// Reading a transcript backwards. The gauge needs only the newest usage record, which sits near the
// end of a file that can grow past 100 MB, so we read fixed-size blocks from the end and hand out
// lines newest first: the cost follows the distance to what we look for, not the file size.
import type { FileHandle } from 'node:fs/promises';

/** 64 KiB: a typical turn's lines fit in one or two blocks; larger blocks only add copying. */
export const TAIL_BLOCK_BYTES = 64 * 1024;
const NEWLINE = 0x0a;

export interface TailLine {
  /** Line content without its newline. */
  bytes: Buffer;
  offset: number;
  /** Offset just past the newline (or the end of file for an unterminated last line). */
  end: number;
  /** False only for a last line with no newline yet: possibly a write in progress. */
  terminated: boolean;
}

/**
 * Yields the lines of the first `size` bytes of the file, last line first. A line longer than a
 * block is gathered from its pieces and joined once, when its start is found.
 */
export async function* linesBackward(handle: FileHandle, size: number, blockBytes = TAIL_BLOCK_BYTES): AsyncGenerator<TailLine> {
  let pieces: Buffer[] = [];
  let segmentEnd = size;
  let terminated = false;
  let position = size;
  while (position > 0) {
    const start = Math.max(0, position - blockBytes);
    // A fresh buffer per block: pieces of a long line keep referring to it until the line is joined.
    const block = Buffer.allocUnsafe(position - start);
    const { bytesRead } = await handle.read(block, 0, block.length, start);
    if (bytesRead < block.length) throw new Error(`File shrank while reading backwards (at ${start})`);
    let right = block.length;
    let newline = right > 0 ? block.lastIndexOf(NEWLINE, right - 1) : -1;
    while (newline !== -1) {
      const line = joinPieces(block.subarray(newline + 1, right), pieces);
      // The empty "line" after a final newline is not a line.
      if (terminated || line.length > 0) yield { bytes: line, offset: start + newline + 1, end: terminated ? segmentEnd + 1 : segmentEnd, terminated };
      pieces = [];
      segmentEnd = start + newline;
      terminated = true;
      right = newline;
      newline = right > 0 ? block.lastIndexOf(NEWLINE, right - 1) : -1;
    }
    if (right > 0) pieces.unshift(block.subarray(0, right));
    position = start;
  }
  const first = joinPieces(Buffer.alloc(0), pieces);
  if (terminated || first.length > 0) yield { bytes: first, offset: 0, end: terminated ? segmentEnd + 1 : segmentEnd, terminated };
}

function joinPieces(head: Buffer, rest: Buffer[]): Buffer {
  if (rest.length === 0) return head;
  return Buffer.concat([head, ...rest]);
}
