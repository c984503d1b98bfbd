// What the reads of a followed database keep between them, so a follower's read after OpenCode
// wrote a turn reads the log's new frames and the pages they changed, not the session again: the
// log's scan up to its last commit (walIndex.ts's resume point) and the pages read (kept by where
// they came from: a log frame's bytes never change while its salts hold, a database page's while
// the file's size and time do). Held by whoever follows (`keepReads`); without a holder, every
// read starts from nothing, as a one-shot command's does. Bounded: past KEPT_BYTES the pages read
// longest ago go.
import type { WalResume } from './walIndex';

/** A session's pages and the upper pages of its indexes; a very long session's leaves beyond this are read again. */
export const KEPT_BYTES = 24 * 1024 * 1024;

export interface KeptReads {
  holders: number;
  /** The database file's `ino:size:mtime` the kept pages were read from; another: they are dropped. */
  dbStamp: string;
  /** The log's inode and salts the kept frames were read from; another: they are dropped. */
  walStamp: string;
  resume: WalResume | null;
  /** Page bytes by source: `d<page number>` (the database file) or `w<offset>` (a frame of the log). */
  readonly pages: Map<string, Uint8Array>;
  bytes: number;
}

const kept = new Map<string, KeptReads>();

/** Keeps the reads of the database at `path` until `release()` (calls nest: the last release drops them). */
export function keepReads(path: string): { release(): void } {
  const entry = kept.get(path) ?? { holders: 0, dbStamp: '', walStamp: '', resume: null, pages: new Map(), bytes: 0 };
  entry.holders++;
  kept.set(path, entry);
  let released = false;
  return {
    release: () => {
      if (released) return;
      released = true;
      if (--entry.holders > 0) return;
      kept.delete(path);
      forget(entry);
    },
  };
}

/** The reads kept for `path`, or undefined when nobody holds it. */
export function keptReadsOf(path: string): KeptReads | undefined {
  return kept.get(path);
}

/**
 * Brings `entry` to the files as they are now: pages of a database file that changed (a checkpoint
 * wrote it) or of another log (restarted: new salts, or another file) are dropped with the scan.
 */
export function checkKept(entry: KeptReads, dbStamp: string, walStamp: string): void {
  if (entry.dbStamp === dbStamp && entry.walStamp === walStamp) return;
  if (entry.dbStamp !== dbStamp) forget(entry);
  else {
    // The same database file under another log (the first write of a session made one): only the
    // frames' pages go; the file's pages still hold wherever the new log does not replace them.
    for (const [key, page] of entry.pages) {
      if (!key.startsWith('w')) continue;
      entry.pages.delete(key);
      entry.bytes -= page.length;
    }
  }
  entry.dbStamp = dbStamp;
  entry.walStamp = walStamp;
}

export function keptPage(entry: KeptReads, key: string): Uint8Array | undefined {
  const bytes = entry.pages.get(key);
  if (bytes === undefined) return undefined;
  entry.pages.delete(key);
  entry.pages.set(key, bytes);
  return bytes;
}

export function keepPage(entry: KeptReads, key: string, bytes: Uint8Array): void {
  const previous = entry.pages.get(key);
  if (previous !== undefined) entry.bytes -= previous.length;
  entry.pages.set(key, bytes);
  entry.bytes += bytes.length;
  for (const [oldest, page] of entry.pages) {
    if (entry.bytes <= KEPT_BYTES) break;
    entry.pages.delete(oldest);
    entry.bytes -= page.length;
  }
}

/** Databases whose reads are kept now, for tests. */
export function keptPaths(): string[] {
  return [...kept.keys()];
}

function forget(entry: KeptReads): void {
  entry.pages.clear();
  entry.bytes = 0;
  entry.resume = null;
  entry.dbStamp = '';
  entry.walStamp = '';
}
