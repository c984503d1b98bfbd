// The newest bytes read of a held session file (heldFile.ts), one contiguous window of it: what the
// readers of a followed session ask for again on every append (the end of the file, back to the
// live context's start) is served from here, and only bytes never read come from the disk. Bounded:
// past MAX_KEPT_BYTES the oldest bytes go.
import type { FileHandle } from 'node:fs/promises';

/** A context window's records are a few MiB; 32 MiB keeps a long live context with room to spare. */
export const MAX_KEPT_BYTES = 32 * 1024 * 1024;
/** Bytes before the kept end compared again when the file changed: still there means appended to. */
const SEAL_BYTES = 256;

interface Chunk {
  offset: number;
  bytes: Buffer;
}

export class TailBytes {
  private chunks: Chunk[] = [];
  /** The window is [start, end); start === end: nothing kept yet; -1: not placed yet. */
  private start = -1;
  private end = -1;

  constructor(private readonly max = MAX_KEPT_BYTES) {}

  clear(): void {
    this.chunks = [];
    this.start = -1;
    this.end = -1;
  }

  get kept(): number {
    return this.end - this.start;
  }

  /**
   * The file is now `size` bytes: what was appended is read (with the seal before it, in one read)
   * and kept; a file that shrank, or whose seal changed (rewritten in place), drops what was kept.
   */
  async extendOrDrop(file: FileHandle, size: number): Promise<void> {
    if (this.start === -1 || size < this.end) return this.placeAt(size);
    const seal = Math.min(SEAL_BYTES, this.end - this.start);
    if (seal === 0) return size === this.end ? undefined : this.placeAt(size);
    if (size - this.end > this.max) return this.placeAt(size);
    const from = this.end - seal;
    const bytes = Buffer.allocUnsafe(size - from);
    const { bytesRead } = await file.read(bytes, 0, bytes.length, from);
    if (bytesRead < seal || !bytes.subarray(0, seal).equals(this.copy(from, this.end))) return this.placeAt(size);
    if (bytesRead > seal) this.append(bytes.subarray(seal, bytesRead));
  }

  /** `FileHandle.read` by position, from the kept bytes where it can; other forms go to the file. */
  async read(file: FileHandle, buffer: unknown, offset?: unknown, length?: unknown, position?: unknown): Promise<{ bytesRead: number; buffer: Buffer }> {
    if (
      !Buffer.isBuffer(buffer) ||
      typeof position !== 'number' ||
      position < 0 ||
      (offset !== undefined && typeof offset !== 'number') ||
      (length !== undefined && typeof length !== 'number')
    ) {
      return (file.read as (...args: unknown[]) => Promise<{ bytesRead: number; buffer: Buffer }>)(buffer, offset, length, position);
    }
    const at = offset ?? 0;
    const wanted = length ?? buffer.length - at;
    let done = 0;
    while (done < wanted) {
      const got = await this.readPart(file, buffer, at + done, wanted - done, position + done);
      if (got === 0) break;
      done += got;
    }
    return { bytesRead: done, buffer };
  }

  /** One part of a read: below the window, in it, or past it. */
  private async readPart(file: FileHandle, buffer: Buffer, at: number, length: number, position: number): Promise<number> {
    if (this.start !== -1 && position >= this.start && position < this.end) {
      const part = this.copy(position, Math.min(this.end, position + length));
      part.copy(buffer, at);
      return part.length;
    }
    // Below the window: read up to its start (at most), kept when it joins the window.
    const stop = this.start !== -1 && position < this.start ? Math.min(position + length, this.start) : position + length;
    const { bytesRead } = await file.read(buffer, at, stop - position, position);
    const read = buffer.subarray(at, at + bytesRead);
    if (this.start === -1 || bytesRead === 0) return bytesRead;
    if (position + bytesRead === this.start && this.kept + bytesRead <= this.max) this.prepend(position, read);
    else if (position === this.end) this.append(read);
    return bytesRead;
  }

  private placeAt(size: number): void {
    this.chunks = [];
    this.start = size;
    this.end = size;
  }

  private prepend(offset: number, bytes: Buffer): void {
    this.chunks.unshift({ offset, bytes: Buffer.from(bytes) });
    this.start = offset;
  }

  private append(bytes: Buffer): void {
    this.chunks.push({ offset: this.end, bytes: Buffer.from(bytes) });
    this.end += bytes.length;
    // The oldest bytes go first: readers come back for the end.
    while (this.kept > this.max && this.chunks.length > 1) {
      const first = this.chunks.shift() as Chunk;
      this.start = first.offset + first.bytes.length;
    }
  }

  /** The kept bytes [from, to), within the window. */
  private copy(from: number, to: number): Buffer {
    const parts: Buffer[] = [];
    for (const chunk of this.chunks) {
      const chunkEnd = chunk.offset + chunk.bytes.length;
      if (chunkEnd <= from || chunk.offset >= to) continue;
      parts.push(chunk.bytes.subarray(Math.max(0, from - chunk.offset), Math.min(chunk.bytes.length, to - chunk.offset)));
    }
    return parts.length === 1 ? (parts[0] as Buffer) : Buffer.concat(parts);
  }
}
