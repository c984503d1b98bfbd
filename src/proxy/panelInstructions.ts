// What the panel decided for one agent session, for every live proxy that carries its requests: the
// one the extension host runs and one started in a terminal (`ctxlens proxy`, `run`) alike.
// The extension writes a small file per followed session, named by its id; a proxy looks it up by
// the id a request names (Claude Code's metadata, Codex's cache key), and for a request that names
// none (Gemini CLI, OpenCode) by the tool call ids it carries, which the file lists. A stat per
// file, a read only when one changed. The shape is the contract in contracts/panelInstructions.ts.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { chmod, mkdir, readdir, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { PANEL_MAX_IDS, PANEL_SESSION_ID, panelInstructionsSchema, type PanelInstructionsFile } from '../contracts/panelInstructions';
import type { EngineOptionsInput } from '../engine';
import { writeAtomically } from '../sessions/atomicWrite';
import { failFromError } from '../sessions/result';
import type { Result } from '../sessions/types';
import { FOLDER_MODE } from './events';
import type { LiveInstructions } from './instructions';

export function panelDir(stateDir: string): string {
  return join(stateDir, 'panel');
}

/** A file is small: thousands of ids at most. A bigger one is not ours, and is not read. */
const MAX_FILE_BYTES = 4 * 1024 * 1024;
/** Choices of a session nobody has looked at for this long are removed by the next write. */
export const PANEL_FILE_MAX_AGE_MS = 30 * 24 * 60 * 60 * 1000;
/** Files looked at to place a request that names no session: the panel follows a handful of sessions a month. */
const MAX_FILES_LISTED = 512;

/** What the panel says about a session, and the tool call ids it holds so a request naming no session can be placed. */
export type PanelSay = LiveInstructions & { toolCalls?: readonly string[] };

/** Writes the panel's say about `agentSession` (atomically, readable by the user alone). */
export async function writePanelInstructions(dir: string, agentSession: string, instructions: PanelSay, now = new Date()): Promise<Result<void>> {
  const { toolCalls, ...said } = instructions;
  const file: PanelInstructionsFile = panelInstructionsSchema.parse({
    v: 1,
    agentSession,
    time: now.toISOString(),
    ...said,
    keep: (said.keep ?? []).slice(-PANEL_MAX_IDS),
    drop: (said.drop ?? []).slice(-PANEL_MAX_IDS),
    // The newest calls are the ones later requests carry.
    ...(toolCalls && toolCalls.length > 0 ? { toolCalls: toolCalls.slice(-PANEL_MAX_IDS) } : {}),
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

interface Read {
  instructions: LiveInstructions;
  toolCalls: ReadonlySet<string>;
}

interface Cached extends Read {
  /** Every write is a new file renamed into place: a new inode even within one mtime tick. */
  ino: number;
  mtimeMs: number;
  size: number;
}

const NONE: LiveInstructions = {};
const NOTHING: Read = { instructions: NONE, toolCalls: new Set() };

/** Whose say holds for a request that names no session, found by the tool calls it carries. */
export type PlacedByCalls =
  | { kind: 'none' }
  | { kind: 'one'; agentSession: string; instructions: LiveInstructions }
  /** Two sessions or more hold the calls (a fork, a compacted copy): none of their says is applied. */
  | { kind: 'several'; agentSessions: string[] };

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
    return this.entry(agentSession).instructions;
  }

  /**
   * The say of the one session whose tool calls include the request's: those holding its newest
   * call decide (a fork holds the older ones too); when none holds that one yet (the panel reads
   * the transcript a moment after the agent sends), those holding any of them. Never a guess
   * between two sessions.
   */
  byToolCalls(callIds: readonly string[]): PlacedByCalls {
    if (callIds.length === 0) return { kind: 'none' };
    const holders = this.sessionsWithCalls();
    if (holders.length === 0) return { kind: 'none' };
    const newest = callIds[callIds.length - 1] as string;
    let found = holders.filter(([, read]) => read.toolCalls.has(newest));
    if (found.length === 0) found = holders.filter(([, read]) => callIds.some((id) => read.toolCalls.has(id)));
    if (found.length === 0) return { kind: 'none' };
    if (found.length > 1) return { kind: 'several', agentSessions: found.map(([id]) => id).sort() };
    const [agentSession, read] = found[0] as [string, Read];
    return { kind: 'one', agentSession, instructions: read.instructions };
  }

  /** Whether a session found only by its tool calls has a drop waiting: then a small request is read all the same. */
  dropsByCalls(): boolean {
    return this.sessionsWithCalls().some(([, read]) => (read.instructions.drop?.length ?? 0) > 0);
  }

  /** The sessions whose file lists tool calls: one listing and a stat per file, a file read only when it changed. */
  private sessionsWithCalls(): [string, Read][] {
    let names: string[];
    try {
      names = readdirSync(this.dir);
    } catch {
      return [];
    }
    const found: [string, Read][] = [];
    for (const name of names.slice(0, MAX_FILES_LISTED)) {
      if (!name.endsWith('.json')) continue;
      const id = name.slice(0, -'.json'.length);
      const read = this.entry(id);
      if (read.toolCalls.size > 0) found.push([id, read]);
    }
    return found;
  }

  private entry(agentSession: string | null): Read {
    if (agentSession === null || !PANEL_SESSION_ID.test(agentSession)) return NOTHING;
    const path = join(this.dir, `${agentSession}.json`);
    let ino: number;
    let size: number;
    let mtimeMs: number;
    try {
      const stats = statSync(path);
      if (!stats.isFile()) return NOTHING;
      ({ ino, size, mtimeMs } = stats);
    } catch {
      this.cache.delete(agentSession);
      return NOTHING;
    }
    const cached = this.cache.get(agentSession);
    if (cached && cached.ino === ino && cached.mtimeMs === mtimeMs && cached.size === size) return cached;
    const read = this.read(path, size, agentSession);
    // Bounded: one entry per session with a file, at most the files listed.
    if (this.cache.size > MAX_FILES_LISTED) this.cache.clear();
    const entry = { ...read, ino, mtimeMs, size };
    this.cache.set(agentSession, entry);
    return entry;
  }

  private read(path: string, size: number, agentSession: string): Read {
    if (size > MAX_FILE_BYTES) {
      this.report(`panel instructions for ${agentSession} ignored: ${size} bytes is not a file of ours`);
      return NOTHING;
    }
    let parsed: ReturnType<typeof panelInstructionsSchema.safeParse>;
    try {
      parsed = panelInstructionsSchema.safeParse(JSON.parse(readFileSync(path, 'utf8')));
    } catch (error) {
      this.report(`panel instructions for ${agentSession} ignored: ${error instanceof Error ? error.message : String(error)}`);
      return NOTHING;
    }
    if (!parsed.success || parsed.data.agentSession !== agentSession) {
      this.report(
        `panel instructions for ${agentSession} ignored: ${parsed.success ? 'written for another session' : (parsed.error.issues[0]?.message ?? 'invalid')}`,
      );
      return NOTHING;
    }
    const { windowTokens, triggerPercent, engine, keep, drop, toolCalls } = parsed.data;
    // The engine reads what it knows of the settings' knobs and ignores the rest.
    return {
      instructions: {
        ...(windowTokens ? { windowTokens } : {}),
        ...(triggerPercent ? { triggerPercent } : {}),
        ...(engine ? { engine: engine as EngineOptionsInput } : {}),
        keep,
        drop,
      },
      toolCalls: new Set(toolCalls ?? []),
    };
  }
}
