// The compaction history of a transcript, kept on disk between processes. Finding every compaction
// reads the whole file once; a CLI command is a new process each time, so without this every
// `inspect` of a 100 MB session would read 100 MB again. The index is keyed by the file's identity
// (device and inode: a renamed transcript keeps it) and holds how far it was read and the bytes just
// before that point: when they are still there, the file was only appended to and reading resumes.
// A cache, never the truth: anything unreadable or stale is ignored and the file is read again.
import type { Stats } from 'node:fs';
import { mkdir, readdir, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { READ_CAPS, readRegularText } from '../common/regularFile';
import { dirname, join } from 'node:path';
import type { CompactionEvent, Diagnostic } from '../types';
import { cacheRoot } from '../../base/node/cacheDir';

export interface StoredHistory {
  /** Where reading resumes: the end of what was read, or the last compaction when it may still be completed (summary, focus). */
  resumeOffset: number;
  resumeLine: number;
  /** The events and diagnostics of the lines before `resumeOffset`. */
  events: CompactionEvent[];
  diagnostics: Diagnostic[];
  /** How far the file was read, and the bytes just before that point (base64). */
  readTo: number;
  seal: string;
  /** The hashes of the replay blobs before `readTo` (common/keyFilter.ts, base64). */
  blobs: string;
}

interface IndexFile extends StoredHistory {
  version: typeof VERSION;
  dev: number;
  ino: number;
}

// 2: with `blobs`.
const VERSION = 3;
/** Old entries (deleted or long-idle transcripts) are removed past this many. */
const MAX_ENTRIES = 256;

/** `$CONTEXT_LENS_CACHE`, else `$XDG_CACHE_HOME/context-lens`, else `~/.cache/context-lens`; then `history/`. */
export function historyIndexDir(env: Readonly<Record<string, string | undefined>> = process.env): string {
  return join(cacheRoot(env), 'history');
}

function entryPath(stats: Stats, sidechain: boolean, dir: string): string {
  return join(dir, `${stats.dev}-${stats.ino}-${sidechain ? 'sidechain' : 'main'}.json`);
}

/** The stored history of this file, when there is one for the same file that was read no further than its size. */
export async function loadStoredHistory(stats: Stats, sidechain: boolean, dir = historyIndexDir()): Promise<StoredHistory | null> {
  // Our own cache file, read through the same guard as anyone's: one that is odd is no index.
  const read = await readRegularText(entryPath(stats, sidechain, dir), READ_CAPS.ownRecord);
  if (!read.ok || read.value === null) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(read.value);
  } catch {
    return null;
  }
  const entry = parsed as Partial<IndexFile> | null;
  const valid =
    entry !== null &&
    typeof entry === 'object' &&
    entry.version === VERSION &&
    entry.dev === stats.dev &&
    entry.ino === stats.ino &&
    Number.isSafeInteger(entry.readTo) &&
    Number.isSafeInteger(entry.resumeOffset) &&
    Number.isSafeInteger(entry.resumeLine) &&
    typeof entry.seal === 'string' &&
    typeof entry.blobs === 'string' &&
    Array.isArray(entry.events) &&
    Array.isArray(entry.diagnostics) &&
    (entry.resumeOffset as number) <= (entry.readTo as number) &&
    (entry.readTo as number) <= stats.size;
  return valid ? (entry as IndexFile) : null;
}

/** Writes the entry (0600, in a 0700 folder) through a rename, so a reader sees the old or the new one; failures are ignored. */
export async function saveStoredHistory(stats: Stats, sidechain: boolean, history: StoredHistory, dir = historyIndexDir()): Promise<void> {
  const entry: IndexFile = { version: VERSION, dev: stats.dev, ino: stats.ino, ...history };
  await writeCacheEntry(entryPath(stats, sidechain, dir), entry);
}

/** Any index kept beside the histories (sessionCalls.ts keeps each file's calls): written whole through a rename, failures ignored. */
export async function writeCacheEntry(path: string, entry: unknown): Promise<void> {
  const dir = dirname(path);
  const temp = `${path}.${process.pid}.tmp`;
  try {
    await mkdir(dir, { recursive: true, mode: 0o700 });
    await writeFile(temp, JSON.stringify(entry), { mode: 0o600 });
    await rename(temp, path);
    await pruneEntries(dir);
  } catch {
    await unlink(temp).catch(() => undefined);
  }
}

async function pruneEntries(dir: string): Promise<void> {
  const names = await readdir(dir);
  if (names.length <= MAX_ENTRIES) return;
  const aged = await Promise.all(names.map(async (name) => ({ name, mtime: (await stat(join(dir, name)).catch(() => null))?.mtimeMs ?? 0 })));
  aged.sort((a, b) => a.mtime - b.mtime);
  await Promise.all(aged.slice(0, names.length - MAX_ENTRIES).map(({ name }) => unlink(join(dir, name)).catch(() => undefined)));
}
