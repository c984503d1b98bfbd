// The archive on disk: one redacted JSON file per entry, private (files 0600 in a 0700 folder), kept
// under a size and age cap. `StagedArchive` holds a preview's entry in memory until the apply step
// commits it, so only what is applied reaches the disk.
import { chmod, mkdir, readdir, rename, rm, stat, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  DEFAULT_ARCHIVE_CAPS,
  MemoryArchive,
  newArchiveId,
  type Archive,
  type ArchiveCaps,
  type ArchiveEntry,
  type ArchiveRef,
  redactSecrets,
} from '../engine';
import type { Result } from '../base/result';
import { READ_CAPS, readRegularText } from '../sessions/common/regularFile';
import { describeFsError } from '../sessions/result';

const FILE_MODE = 0o600;
const FOLDER_MODE = 0o700;
const ENTRY_FILE = /^\d{4}-\d{2}-\d{2}T[\w-]+\.json$/;
const TEMP_FILE = /^\d{4}-\d{2}-\d{2}T[\w-]+\.json\.\d+\.tmp$/;
/** A temp file this old belongs to a writer that died; younger ones may still be renamed. */
const STALE_TEMP_MS = 60 * 60 * 1000;

const errorText = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/**
 * The folder is created 0700. One that already exists is tightened only when it holds nothing but
 * archive files: `--archive-dir ~` must never change the mode of someone's home.
 */
async function ensurePrivateFolder(folder: string): Promise<void> {
  let created: string | undefined;
  try {
    created = await mkdir(folder, { recursive: true, mode: FOLDER_MODE });
  } catch (error) {
    throw new Error(describeFsError(error, folder, 'create-folder'), { cause: error });
  }
  if (created !== undefined) return;
  const stats = await stat(folder);
  if ((stats.mode & 0o077) === 0) return;
  const names = await readdir(folder);
  if (names.every((name) => ENTRY_FILE.test(name) || TEMP_FILE.test(name))) await chmod(folder, FOLDER_MODE);
}

/** One JSON file per entry, written to a temp name and renamed so a reader never sees half a file. */
export class FileSystemArchive implements Archive {
  constructor(readonly folder: string) {}

  put(entry: Omit<ArchiveEntry, 'id'>): Promise<ArchiveRef> {
    return this.write({ id: newArchiveId(new Date(entry.createdAt)), ...entry });
  }

  /** Writes an entry under its own id (a staged entry keeps the id the summary already cites). */
  async write(entry: ArchiveEntry): Promise<ArchiveRef> {
    if (!/^[\w-]+$/.test(entry.id)) throw new Error(`invalid archive id ${entry.id}`);
    await ensurePrivateFolder(this.folder);
    const location = join(this.folder, `${entry.id}.json`);
    const temp = `${location}.${process.pid}.tmp`;
    // Redacted as one JSON text: the items' text and their raw blocks (tool inputs) alike. No
    // pattern consumes a quote or a backslash, so the JSON stays valid.
    try {
      await writeFile(temp, redactSecrets(JSON.stringify(entry)), { encoding: 'utf8', mode: FILE_MODE });
      await rename(temp, location);
    } catch (error) {
      // A full disk leaves no partial entry behind: each retry would otherwise add one.
      await unlink(temp).catch(() => undefined);
      throw new Error(describeFsError(error, location, 'write'), { cause: error });
    }
    return { id: entry.id, location };
  }

  async get(id: string): Promise<ArchiveEntry | undefined> {
    if (!/^[\w-]+$/.test(id)) return undefined;
    const read = await readRegularText(join(this.folder, `${id}.json`), READ_CAPS.archiveEntry);
    if (!read.ok || read.value === null) return undefined;
    try {
      return JSON.parse(read.value) as ArchiveEntry;
    } catch {
      return undefined;
    }
  }
}

/**
 * What `compact` archives for a preview: held in memory until `commit`, which the apply step calls
 * before it writes anything that shrinks the context. A preview that is cancelled leaves no trace.
 */
export class StagedArchive implements Archive {
  private readonly staged = new MemoryArchive();

  constructor(readonly target: FileSystemArchive) {}

  put(entry: Omit<ArchiveEntry, 'id'>): Promise<ArchiveRef> {
    return this.staged.put(entry).then(({ id }) => ({ id, location: `staged:${id}` }));
  }

  async get(id: string): Promise<ArchiveEntry | undefined> {
    return this.staged.entries.get(id) ?? (await this.target.get(id));
  }

  /** Writes the staged entry, then prunes the folder to `caps` (never the entry just written). */
  async commit(id: string, caps: ArchiveCaps = DEFAULT_ARCHIVE_CAPS): Promise<Result<ArchiveRef>> {
    const entry = this.staged.entries.get(id);
    if (!entry) return { ok: false, error: `no staged archive entry ${id}` };
    let ref: ArchiveRef;
    try {
      ref = await this.target.write(entry);
    } catch (error) {
      return { ok: false, error: `could not archive the context in ${this.target.folder}: ${errorText(error)}` };
    }
    this.staged.entries.delete(id);
    // A failed prune leaves an archive too large, not a compaction unsafe: it is not an error here.
    await pruneArchive(this.target.folder, { ...caps, keep: [`${id}.json`] });
    return { ok: true, value: ref };
  }
}

export interface PruneOptions extends ArchiveCaps {
  dryRun?: boolean;
  /** File names never removed. */
  keep?: readonly string[];
  now?: Date;
}

export interface PruneReport {
  folder: string;
  /** Entries (and dead temp files) removed, or that would be with `dryRun`, oldest first. */
  removed: { name: string; bytes: number; reason: 'age' | 'size' | 'temp' }[];
  keptEntries: number;
  keptBytes: number;
  dryRun: boolean;
}

/**
 * Removes entries older than `maxAgeDays`, then the oldest until the rest fits in `maxMegabytes`.
 * Only files named like our entries are ever touched; a missing folder is an empty archive.
 */
export async function pruneArchive(folder: string, options: PruneOptions): Promise<Result<PruneReport>> {
  const now = (options.now ?? new Date()).getTime();
  const keep = new Set(options.keep ?? []);
  const dryRun = options.dryRun ?? false;
  const report: PruneReport = { folder, removed: [], keptEntries: 0, keptBytes: 0, dryRun };
  let names: string[];
  try {
    names = await readdir(folder);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { ok: true, value: report };
    return { ok: false, error: `could not read the archive ${folder}: ${errorText(error)}` };
  }
  try {
    const files: { name: string; bytes: number; mtimeMs: number; temp: boolean }[] = [];
    for (const name of names) {
      const temp = TEMP_FILE.test(name);
      if (!temp && !ENTRY_FILE.test(name)) continue;
      const stats = await stat(join(folder, name)).catch(() => undefined);
      if (stats?.isFile()) files.push({ name, bytes: stats.size, mtimeMs: stats.mtimeMs, temp });
    }
    files.sort((a, b) => a.mtimeMs - b.mtimeMs || a.name.localeCompare(b.name));
    const maxAgeMs = options.maxAgeDays * 24 * 60 * 60 * 1000;
    const kept: typeof files = [];
    for (const file of files) {
      if (keep.has(file.name)) kept.push(file);
      else if (file.temp) {
        if (now - file.mtimeMs > STALE_TEMP_MS) report.removed.push({ name: file.name, bytes: file.bytes, reason: 'temp' });
      } else if (options.maxAgeDays > 0 && now - file.mtimeMs > maxAgeMs) report.removed.push({ name: file.name, bytes: file.bytes, reason: 'age' });
      else kept.push(file);
    }
    // Oldest first until the rest fits.
    let bytes = kept.reduce((sum, file) => sum + file.bytes, 0);
    const maxBytes = options.maxMegabytes * 1024 * 1024;
    let keptEntries = kept.length;
    for (const file of kept) {
      if (options.maxMegabytes <= 0 || bytes <= maxBytes) break;
      if (keep.has(file.name)) continue;
      report.removed.push({ name: file.name, bytes: file.bytes, reason: 'size' });
      bytes -= file.bytes;
      keptEntries -= 1;
    }
    report.keptEntries = keptEntries;
    report.keptBytes = bytes;
    if (!dryRun) for (const file of report.removed) await rm(join(folder, file.name), { force: true });
    return { ok: true, value: report };
  } catch (error) {
    return { ok: false, error: `could not prune the archive ${folder}: ${errorText(error)}` };
  }
}
