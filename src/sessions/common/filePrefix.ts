// An append-only session file as it stood at one of its byte offsets: its first bytes are the
// session as it was then. They are copied to a private temporary file (the agent's own file is only
// read) under the same name (an agent may tell its files by it: Codex's rollout-…, Gemini's
// session-…) and read there by the agent's own reader. The audit of the agent's own compactions
// reads the context before and after one this way. The bytes are read through `openRegular`, so a
// session a handle holds is not opened again (its held descriptor and kept bytes serve the read).
import { mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fail, openRegular } from '../result';
import type { Result } from '../types';

/** `read` applied to a copy of `path`'s first `end` bytes; the copy is gone when it returns. */
export async function readFilePrefix<T>(path: string, end: number, read: (copy: string) => Promise<Result<T>>): Promise<Result<T>> {
  if (!Number.isSafeInteger(end) || end <= 0) return fail('invalid-input', `No bytes to read before offset ${end}`, path);
  const dir = await mkdtemp(join(tmpdir(), 'context-lens-before-'));
  try {
    const copy = join(dir, basename(path));
    await copyPrefix(path, end, copy);
    return await read(copy);
  } catch (error) {
    return fail('io', `Could not read the session up to byte ${end}: ${(error as Error).message}`, path);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const CHUNK = 64 * 1024;

/** `path`'s first `end` bytes (fewer if it is shorter) into a new file `copy`. */
async function copyPrefix(path: string, end: number, copy: string): Promise<void> {
  const source = await openRegular(path);
  try {
    const target = await open(copy, 'wx', 0o600);
    try {
      const buffer = Buffer.alloc(Math.min(CHUNK * 16, end));
      for (let at = 0; at < end;) {
        const { bytesRead } = await source.read(buffer, 0, Math.min(buffer.length, end - at), at);
        if (bytesRead === 0) break;
        await target.write(buffer, 0, bytesRead);
        at += bytesRead;
      }
    } finally {
      await target.close();
    }
  } finally {
    await source.close();
  }
}

/** The offset just past the line that starts at `offset` (its newline included; the file's end when it has none). */
export async function lineEnd(path: string, offset: number): Promise<number> {
  const handle = await openRegular(path);
  try {
    const buffer = Buffer.alloc(CHUNK);
    for (let at = offset; ;) {
      const { bytesRead } = await handle.read(buffer, 0, CHUNK, at);
      if (bytesRead === 0) return at;
      const newline = buffer.subarray(0, bytesRead).indexOf(0x0a);
      if (newline >= 0) return at + newline + 1;
      at += bytesRead;
    }
  } finally {
    await handle.close();
  }
}
