// What the panel decided for one agent session, for every live proxy that carries its requests: the
// one the extension host runs and one started in a terminal (`ctxlens proxy`, `run`) alike.
// The extension writes a small file per Claude Code session (named by the session id that Claude
// Code also puts in each request's metadata); a proxy looks it up by that id on each request. A stat
// per request, a read only when the file changed. One module owns the place and the shape (zod),
// so the writer in the extension and the reader in the proxy cannot drift apart.
import { readFileSync, statSync } from 'node:fs';
import { chmod, mkdir, readdir, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import type { EngineOptionsInput } from '../engine';
import { writeAtomically } from '../sessions/atomicWrite';
import { failFromError } from '../sessions/result';
import type { Result } from '../sessions/types';
import { FOLDER_MODE } from './events';
import type { LiveInstructions } from './instructions';

export function panelDir(stateDir: string): string {
  return join(stateDir, 'panel');
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ids = z.array(z.string().max(200)).max(20_000);

/** A file is small: thousands of ids at most. A bigger one is not ours, and is not read. */
const MAX_FILE_BYTES = 2 * 1024 * 1024;
/** Choices of a session nobody has looked at for this long are removed by the next write. */
export const PANEL_FILE_MAX_AGE_MS = 30 * 24 * 60 * 60 * 1000;

export const panelInstructionsSchema = z.object({
  v: z.literal(1),
  agentSession: z.string().regex(UUID),
  time: z.string().refine((value) => !Number.isNaN(Date.parse(value))),
  windowTokens: z.number().int().positive().max(100_000_000).optional(),
  triggerPercent: z.number().positive().lt(100).optional(),
  // The settings' engine knobs: checked for what the proxy reads itself; the engine tolerates the rest.
  engine: z
    .looseObject({
      targetPercent: z.number().positive().lt(100).optional(),
      focus: z.string().max(2_000).optional(),
      summary: z.looseObject({ enabled: z.boolean().optional() }).optional(),
    })
    .optional(),
  keep: ids,
  drop: ids,
});
type PanelInstructionsFile = z.infer<typeof panelInstructionsSchema>;

/** Writes the panel's say about `agentSession` (atomically, readable by the user alone). */
export async function writePanelInstructions(dir: string, agentSession: string, instructions: LiveInstructions, now = new Date()): Promise<Result<void>> {
  const file: PanelInstructionsFile = panelInstructionsSchema.parse({
    v: 1,
    agentSession,
    time: now.toISOString(),
    ...instructions,
    keep: instructions.keep ?? [],
    drop: instructions.drop ?? [],
  });
  try {
    await mkdir(dir, { recursive: true, mode: FOLDER_MODE });
    await chmod(dir, FOLDER_MODE);
  } catch (error) {
    return failFromError(error, dir);
  }
  const written = await writeAtomically(join(dir, `${agentSession}.json`), JSON.stringify(file));
  await pruneOld(dir, now.getTime());
  return written;
}

/** Best effort: the files of sessions untouched for a month. */
async function pruneOld(dir: string, now: number): Promise<void> {
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    if (!name.endsWith('.json')) continue;
    const path = join(dir, name);
    const stats = await stat(path).catch(() => null);
    if (stats?.isFile() && now - stats.mtimeMs > PANEL_FILE_MAX_AGE_MS) await unlink(path).catch(() => undefined);
  }
}

interface Cached {
  /** Every write is a new file renamed into place: a new inode even within one mtime tick. */
  ino: number;
  mtimeMs: number;
  size: number;
  instructions: LiveInstructions;
}

const NONE: LiveInstructions = {};

/**
 * The proxy's side: the instructions for a session, re-read only when its file changed. A missing
 * file is no say; an invalid one is no say and one diagnostic (until it changes). Never throws.
 */
export class PanelInstructionsReader {
  private readonly cache = new Map<string, Cached>();

  constructor(
    private readonly dir: string,
    private readonly report: (line: string) => void = () => undefined,
  ) {}

  of(agentSession: string | null): LiveInstructions {
    if (agentSession === null || !UUID.test(agentSession)) return NONE;
    const path = join(this.dir, `${agentSession}.json`);
    let ino: number;
    let size: number;
    let mtimeMs: number;
    try {
      const stats = statSync(path);
      if (!stats.isFile()) return NONE;
      ({ ino, size, mtimeMs } = stats);
    } catch {
      this.cache.delete(agentSession);
      return NONE;
    }
    const cached = this.cache.get(agentSession);
    if (cached && cached.ino === ino && cached.mtimeMs === mtimeMs && cached.size === size) return cached.instructions;
    const instructions = this.read(path, size, agentSession);
    // Bounded: one entry per session with a file; a proxy serves a handful.
    if (this.cache.size > 256) this.cache.clear();
    this.cache.set(agentSession, { ino, mtimeMs, size, instructions });
    return instructions;
  }

  private read(path: string, size: number, agentSession: string): LiveInstructions {
    if (size > MAX_FILE_BYTES) {
      this.report(`panel instructions for ${agentSession} ignored: ${size} bytes is not a file of ours`);
      return NONE;
    }
    let parsed: ReturnType<typeof panelInstructionsSchema.safeParse>;
    try {
      parsed = panelInstructionsSchema.safeParse(JSON.parse(readFileSync(path, 'utf8')));
    } catch (error) {
      this.report(`panel instructions for ${agentSession} ignored: ${error instanceof Error ? error.message : String(error)}`);
      return NONE;
    }
    if (!parsed.success || parsed.data.agentSession !== agentSession) {
      this.report(
        `panel instructions for ${agentSession} ignored: ${parsed.success ? 'written for another session' : (parsed.error.issues[0]?.message ?? 'invalid')}`,
      );
      return NONE;
    }
    const { windowTokens, triggerPercent, engine, keep, drop } = parsed.data;
    // The engine reads what it knows of the settings' knobs and ignores the rest.
    return {
      ...(windowTokens ? { windowTokens } : {}),
      ...(triggerPercent ? { triggerPercent } : {}),
      ...(engine ? { engine: engine as EngineOptionsInput } : {}),
      keep,
      drop,
    };
  }
}
