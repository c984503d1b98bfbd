// What a reader built from a file, kept for the next read of the same, unchanged file: for a process
// that answers many commands about the same sessions (the resident reader, cli/resident.ts). Off
// elsewhere: a command that reads a file once would only hold memory, and the extension host reads
// a session again when it changed. "Unchanged" is the file's identity, size and modification time
// and its last bytes, the same test the compaction history uses before it continues a file.
import type { FileHandle } from 'node:fs/promises';
import type { Stats } from 'node:fs';
import { sealBefore } from './lines';

let keeping = false;

/** From now on this process keeps what readers built (a resident process calls it once; tests turn it off again). */
export function keepReads(keep = true): void {
  keeping = keep;
}

export function keepingReads(): boolean {
  return keeping;
}

interface Kept<T> {
  stamp: string;
  seal: Buffer;
  value: T;
}

export class ReadMemo<T> {
  private readonly kept = new Map<string, Kept<T>>();

  /** At most `files` files' builds are kept, the least recently used going first. */
  constructor(private readonly files: number) {}

  /** The build kept for `key` when the file is as it was then; undefined otherwise (or when not keeping). */
  async get(key: string, handle: FileHandle, stats: Stats): Promise<T | undefined> {
    if (!keeping) return undefined;
    const kept = this.kept.get(key);
    if (kept === undefined || kept.stamp !== stampOf(stats)) return undefined;
    if (!(await sealBefore(handle, stats.size)).equals(kept.seal)) return undefined;
    this.kept.delete(key);
    this.kept.set(key, kept);
    return kept.value;
  }

  async set(key: string, handle: FileHandle, stats: Stats, value: T): Promise<void> {
    if (!keeping) return;
    this.kept.delete(key);
    this.kept.set(key, { stamp: stampOf(stats), seal: await sealBefore(handle, stats.size), value });
    if (this.kept.size > this.files) this.kept.delete(this.kept.keys().next().value as string);
  }
}

const stampOf = (stats: Stats): string => `${stats.dev}:${stats.ino}:${stats.size}:${stats.mtimeMs}:${stats.ctimeMs}`;
