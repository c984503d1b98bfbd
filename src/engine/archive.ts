// Persist before shrink (S13, S22): the pre-compaction context is stored before any tier's output is
// used, and the result points at the stored entry so the compaction can be inspected or undone.
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
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

/** Sortable by time, unique within a process without coordination. */
export function newArchiveId(now: Date = new Date()): string {
  return `${now.toISOString().replace(/[:.]/g, '-')}-${Math.random().toString(36).slice(2, 8)}`;
}

/** One JSON file per entry, written to a temp name and renamed so a reader never sees half a file. */
export class FileSystemArchive implements Archive {
  constructor(private readonly folder: string) {}

  async put(entry: Omit<ArchiveEntry, 'id'>): Promise<ArchiveRef> {
    await mkdir(this.folder, { recursive: true });
    const id = newArchiveId(new Date(entry.createdAt));
    const location = join(this.folder, `${id}.json`);
    const temp = `${location}.${process.pid}.tmp`;
    await writeFile(temp, JSON.stringify({ id, ...entry }), 'utf8');
    await rename(temp, location);
    return { id, location };
  }

  async get(id: string): Promise<ArchiveEntry | undefined> {
    if (!/^[\w-]+$/.test(id)) return undefined;
    try {
      return JSON.parse(await readFile(join(this.folder, `${id}.json`), 'utf8')) as ArchiveEntry;
    } catch {
      return undefined;
    }
  }
}

/** For previews, tests and the CLI's dry runs: same contract, nothing on disk. */
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
