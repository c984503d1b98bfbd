// Compaction the agent asked for (MCP `compact_context`): the MCP server, a process Claude Code
// starts, leaves a request file; the proxy, another process, takes it on the next Messages call and
// compacts that request. One module owns the folder and the shape of a request (zod, both sides).
// A file per request, claimed by rename, so two proxies never apply the same request twice.
import { randomBytes } from 'node:crypto';
import { mkdirSync, chmodSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import type { Result } from '../sessions/types';
import { FILE_MODE, FOLDER_MODE } from './events';
import { AGENT_SESSION_ID } from './session';

/** A request older than this is stale (the proxy was not running): dropped, not applied to a later session. */
export const REQUEST_MAX_AGE_MS = 10 * 60 * 1000;
const TEXT_MAX = 2_000;

export const compactionRequestSchema = z.object({
  v: z.literal(1),
  id: z
    .string()
    .regex(/^[\w-]+$/)
    .max(64),
  time: z.string().refine((value) => !Number.isNaN(Date.parse(value))),
  reason: z.string().max(TEXT_MAX),
  focus: z.string().max(TEXT_MAX),
  /**
   * The agent session that asked (Claude Code tells the servers it starts in CLAUDE_CODE_SESSION_ID):
   * only that session's requests are compacted. Null when the agent did not say: then only a proxy
   * that has seen a single agent session applies it.
   */
  session: z.string().regex(AGENT_SESSION_ID).nullable().default(null),
});
export type CompactionRequest = z.infer<typeof compactionRequestSchema>;

export function requestsDir(stateDir: string): string {
  return join(stateDir, 'requests');
}

const clip = (text: string): string => (text.length > TEXT_MAX ? text.slice(0, TEXT_MAX) : text);

/** Leaves a request for the proxy; returns it as written. */
export function writeCompactionRequest(
  dir: string,
  input: { reason: string; focus: string; session?: string | null },
  now = new Date(),
): Result<CompactionRequest, string> {
  const request: CompactionRequest = {
    v: 1,
    id: `${now.getTime()}-${randomBytes(4).toString('hex')}`,
    time: now.toISOString(),
    reason: clip(input.reason),
    focus: clip(input.focus),
    session: input.session ?? null,
  };
  try {
    mkdirSync(dir, { recursive: true, mode: FOLDER_MODE });
    chmodSync(dir, FOLDER_MODE);
    const file = join(dir, `${request.id}.json`);
    writeFileSync(`${file}.tmp`, JSON.stringify(compactionRequestSchema.parse(request)), { mode: FILE_MODE });
    renameSync(`${file}.tmp`, file);
    return { ok: true, value: request };
  } catch (error) {
    return { ok: false, error: `cannot record the request: ${error instanceof Error ? error.message : String(error)}` };
  }
}

/** Whether a request waits, without reading it (one readdir; a missing folder is none). */
export function hasCompactionRequests(dir: string): boolean {
  try {
    return readdirSync(dir).some((name) => name.endsWith('.json'));
  } catch {
    return false;
  }
}

export interface TakenRequests {
  /** Fresh, valid requests, oldest first. */
  requests: CompactionRequest[];
  /** Why a file was discarded (invalid, stale). */
  discarded: string[];
}

/** What the file holds: a request, or why it is not one. */
function readRequest(path: string): Result<CompactionRequest, string> {
  try {
    const parsed = compactionRequestSchema.safeParse(JSON.parse(readFileSync(path, 'utf8')));
    return parsed.success ? { ok: true, value: parsed.data } : { ok: false, error: 'not a compaction request' };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * Claims the pending requests `accepts` takes (rename, so a second proxy gets none of them), reads
 * and deletes them; another session's requests stay for the proxy that serves it, unless stale or
 * invalid. Synchronous and cheap when the folder is empty or missing: it runs on every Messages call.
 */
export function takeCompactionRequests(dir: string, accepts: (request: CompactionRequest) => boolean = () => true, now = Date.now()): TakenRequests {
  const taken: TakenRequests = { requests: [], discarded: [] };
  let names: string[];
  try {
    names = readdirSync(dir)
      .filter((name) => name.endsWith('.json'))
      .sort();
  } catch {
    return taken;
  }
  for (const name of names) {
    const seen = readRequest(join(dir, name));
    const stale = seen.ok && now - Date.parse(seen.value.time) > REQUEST_MAX_AGE_MS;
    if (seen.ok && !stale && !accepts(seen.value)) continue;
    const claimed = join(dir, `${name}.${process.pid}.claimed`);
    try {
      renameSync(join(dir, name), claimed);
    } catch {
      continue; // another proxy took it first
    }
    try {
      if (!seen.ok) taken.discarded.push(`${name}: ${seen.error}`);
      else if (stale) taken.discarded.push(`${name}: older than ${REQUEST_MAX_AGE_MS / 60_000} minutes`);
      else taken.requests.push(seen.value);
    } finally {
      rmSync(claimed, { force: true });
    }
  }
  return taken;
}
