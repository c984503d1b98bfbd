// The recall archive keeps what stubs name, for as long as an agent may still ask for it back, and
// no longer: every proxied session adds its stubbed outputs, so without pruning the folder grows with
// every week of use (2.4 MB after 5,777 requests in the probe, and a long session of big
// outputs adds far more). Pruned by age, then by size per session and in all, oldest first. Async, so
// a folder of thousands of files never holds up the requests the proxy forwards.
import { readdir, rm, rmdir, stat } from 'node:fs/promises';
import { join } from 'node:path';

export interface RecallLimits {
  /** An archived output older than this is gone: the session that named it has long moved on. */
  maxAgeMs: number;
  /** One session's archive; past it its oldest outputs go first. */
  maxSessionBytes: number;
  /** The whole archive, all sessions together. */
  maxTotalBytes: number;
}

export const DEFAULT_RECALL_LIMITS: RecallLimits = { maxAgeMs: 14 * 86_400_000, maxSessionBytes: 64 * 1024 * 1024, maxTotalBytes: 256 * 1024 * 1024 };

/** A temp file this old is left by a process that died mid-write (a live write takes milliseconds). */
const STALE_TEMP_MS = 60 * 60 * 1000;

interface Archived {
  path: string;
  bytes: number;
  mtimeMs: number;
}

async function filesOf(folder: string): Promise<Archived[]> {
  const names = await readdir(folder).catch(() => [] as string[]);
  const files = await Promise.all(
    names.map(async (name) => {
      const path = join(folder, name);
      const stats = await stat(path).catch(() => null);
      return stats?.isFile() ? [{ path, bytes: stats.size, mtimeMs: stats.mtimeMs }] : [];
    }),
  );
  return files.flat();
}

/** Removes what is past the limits; resolves with how many files went. Never throws. */
export async function pruneRecall(dir: string, limits: RecallLimits = DEFAULT_RECALL_LIMITS, now = Date.now()): Promise<number> {
  const sessions = (await readdir(dir, { withFileTypes: true }).catch(() => [])).filter((entry) => entry.isDirectory());
  const doomed: Archived[] = [];
  const kept: Archived[] = [];
  for (const entry of sessions) {
    const files = (await filesOf(join(dir, entry.name))).sort((a, b) => b.mtimeMs - a.mtimeMs);
    let bytes = 0;
    for (const file of files) {
      const temp = file.path.endsWith('.tmp');
      const old = now - file.mtimeMs > (temp ? STALE_TEMP_MS : limits.maxAgeMs);
      bytes += file.bytes;
      (old || bytes > limits.maxSessionBytes ? doomed : kept).push(file);
    }
  }
  kept.sort((a, b) => b.mtimeMs - a.mtimeMs);
  let total = 0;
  for (const file of kept) {
    total += file.bytes;
    if (total > limits.maxTotalBytes) doomed.push(file);
  }
  await Promise.all(doomed.map((file) => rm(file.path, { force: true }).catch(() => undefined)));
  // A session folder left empty goes too; rmdir refuses one that is not.
  await Promise.all(sessions.map((entry) => rmdir(join(dir, entry.name)).catch(() => undefined)));
  return doomed.length;
}
