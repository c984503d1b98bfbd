// Persist before shrink (S13, S22): the pre-compaction context is kept before a compaction's output
// replaces it, and the result points at the entry so the compaction can be inspected or undone.
// Only what is applied reaches the disk: `compact` puts into a `StagedArchive`, which holds the entry
// in memory, and the apply step (fork written) commits it first. The archive holds whole contexts,
// so it is private (files 0600 in a 0700 folder), redacted, and kept under a size and age cap.
// The engine knows only the contract and an in-memory archive; the file-system archive (and the
// staging that writes it only on apply) live in src/archive/, outside the pure engine.
import type { Context } from './model';

export interface ArchiveEntry {
  id: string;
  createdAt: string;
  reason: string;
  context: Context;
}

export interface ArchiveRef {
  id: string;
  /** Where the entry lives (a file path for the file-system archive). */
  location: string;
}

export interface Archive {
  put(entry: Omit<ArchiveEntry, 'id'>): Promise<ArchiveRef>;
  get(id: string): Promise<ArchiveEntry | undefined>;
}

/** Default caps, shared by the settings (`contextLens.archive.*`) and the CLI. 0 = no cap. */
export const DEFAULT_ARCHIVE_CAPS = { maxMegabytes: 200, maxAgeDays: 30 } as const;
export interface ArchiveCaps {
  maxMegabytes: number;
  maxAgeDays: number;
}

/** Sortable by time, unique within a process without coordination. */
export function newArchiveId(now: Date = new Date()): string {
  // Six digits, not letters: the id is in the summary, and a digit run of fixed length always
  // weighs the same number of tokens, so a compaction's "after" does not move with the draw.
  return `${now.toISOString().replace(/[:.]/g, '-')}-${String(Math.floor(Math.random() * 1_000_000)).padStart(6, '0')}`;
}

/** For tests and the CLI's dry runs: same contract, nothing on disk. */
export class MemoryArchive implements Archive {
  readonly entries = new Map<string, ArchiveEntry>();

  put(entry: Omit<ArchiveEntry, 'id'>): Promise<ArchiveRef> {
    const id = newArchiveId(new Date(entry.createdAt));
    this.entries.set(id, { id, ...entry });
    return Promise.resolve({ id, location: `memory:${id}` });
  }

  get(id: string): Promise<ArchiveEntry | undefined> {
    return Promise.resolve(this.entries.get(id));
  }
}
