// The one way to read a whole file that someone else controls (a workspace's settings, an agent's
// config, a `--prices` file, an OpenCode database): only a regular file, and only up to a size cap
// fitting its use. A named pipe would block the read forever, /dev/zero (or a symlink to it) would
// never end, a folder or a symlink loop cannot be read: each is refused at once with the path and
// the reason. The caps live here, together, so each is chosen next to the others.
import type { FileHandle } from 'node:fs/promises';
import { fail, failFromError, ok, openRegular } from '../result';
import type { Result } from '../types';

const KiB = 1024;
const MiB = 1024 * KiB;

/** Largest file each kind of read accepts; anything bigger is not what the reader expects. */
export const READ_CAPS = {
  /** A settings or config file (Claude Code, VS Code, Codex, Gemini, OpenCode): a few kilobytes. */
  settings: MiB,
  /** A model catalogue an agent caches (OpenCode's `models.json` from models.dev: a few megabytes). */
  catalogue: 64 * MiB,
  /** A one-line marker file (Gemini's `.project_root`, our launcher's version stamp) or our few-line `ctxlens` launcher. */
  marker: 64 * KiB,
  /** Gemini's `projects.json` registry: one entry per project folder ever opened. */
  registry: 4 * MiB,
  /** A `--prices` table: a few hundred models at most. */
  prices: 4 * MiB,
  /** A record Context Lens wrote itself (a fork record, a created-file record, an index entry). */
  ownRecord: 16 * MiB,
  /** One archived context (redacted JSON): a whole session's worth of dropped items. */
  archiveEntry: 256 * MiB,
  /** An OpenCode database and its log read whole: only a fixture's or a test's copy (the agent's own is read page by page). */
  database: 1024 * MiB,
} as const;

/**
 * The bytes of a regular file, at most `maxBytes`; null when there is no file. A file that grows
 * while it is read is cut at the cap and refused like one that was too big from the start.
 */
export async function readRegularBytes(path: string, maxBytes: number): Promise<Result<Buffer | null>> {
  let handle: FileHandle;
  try {
    handle = await openRegular(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return ok(null);
    return failFromError(error, path);
  }
  try {
    const { size } = await handle.stat();
    if (size > maxBytes) return tooBig(path, maxBytes, size);
    // One byte more than the cap is asked for: getting it means the file grew past the cap.
    const buffer = Buffer.allocUnsafe(Math.min(size, maxBytes) + 1);
    let filled = 0;
    while (filled < buffer.length) {
      const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    if (filled > maxBytes) return tooBig(path, maxBytes, null);
    return ok(buffer.subarray(0, filled));
  } catch (error) {
    return failFromError(error, path);
  } finally {
    await handle.close().catch(() => undefined);
  }
}

/** `readRegularBytes` as UTF-8 text (a byte order mark stays: callers that edit the file keep it). */
export async function readRegularText(path: string, maxBytes: number): Promise<Result<string | null>> {
  const read = await readRegularBytes(path, maxBytes);
  return read.ok ? ok(read.value === null ? null : read.value.toString('utf8')) : read;
}

/** The text without a leading byte order mark, for readers that only parse it. */
export function withoutBom(text: string): string {
  return text.startsWith('\uFEFF') ? text.slice(1) : text;
}

function tooBig<T>(path: string, maxBytes: number, size: number | null): Result<T> {
  return fail('invalid-input', `Over ${maxBytes} bytes${size === null ? '' : ` (${size})`}: not read: ${path}`, path);
}
