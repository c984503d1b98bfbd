// What a proxy stub names: the original tool output, archived under a ref (`ctx-lens:<hash>`)
// before the stub replaces it in what the model sees, so the agent can ask for it back (MCP
// `recall`). Private (0600 files in a 0700 folder) and redacted: the archive sits outside the
// agent's folders and may outlive the session.
import { createHash } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { redactSecrets } from '../engine';
import type { Result } from '../sessions/types';
import { FILE_MODE, FOLDER_MODE } from './events';

export const REF_PREFIX = 'ctx-lens:';
const REF = /^ctx-lens:([0-9a-f]{16})$/;
/** A ref anywhere in a text (a stub the agent quotes back). */
export const REF_IN_TEXT = /ctx-lens:[0-9a-f]{16}/;

/** Deterministic: the same output of the same call always gets the same ref. */
export function refOf(toolUseId: string, original: string): string {
  return `${REF_PREFIX}${createHash('sha256').update(toolUseId).update('\0').update(original).digest('hex').slice(0, 16)}`;
}

export function recallDir(stateDir: string): string {
  return join(stateDir, 'recall');
}

/**
 * One folder per agent session: a ref is only recalled by the session whose output it archived (a
 * ref quoted into another conversation finds nothing there). Requests that name no session share one.
 */
export function sessionRecallDir(dir: string, agentSession: string | null): string {
  return join(dir, agentSession === null ? 'no-session' : `session-${agentSession}`);
}

/**
 * Archives `original` under `ref`, synchronously: the stub naming the ref goes out right after, and
 * a recall must never find nothing. Written to a temp name and renamed, so a reader never sees half.
 */
export function archiveOriginal(dir: string, ref: string, original: string): Result<string, string> {
  const match = REF.exec(ref);
  if (!match) return { ok: false, error: `not a ref: ${ref}` };
  const file = join(dir, `${match[1]}.txt`);
  const temp = `${file}.${process.pid}.tmp`;
  try {
    mkdirSync(dir, { recursive: true, mode: FOLDER_MODE });
    chmodSync(dir, FOLDER_MODE);
    writeFileSync(temp, redactSecrets(original), { mode: FILE_MODE });
    renameSync(temp, file);
    return { ok: true, value: file };
  } catch (error) {
    // A full disk leaves half a temp file: it goes now, not at the next prune.
    rmSync(temp, { force: true });
    return { ok: false, error: `cannot archive ${ref}: ${error instanceof Error ? error.message : String(error)}` };
  }
}

/** What replaces an output in what the model sees: the stub, and where the original can be recalled. */
export function stubWithRef(text: string, ref: string): string {
  return `${text}\n[Context Lens archived the full output as ${ref}; the recall tool returns it.]`;
}

/** The archived output a stub named (secrets masked again on the way out). */
export function recallOriginal(dir: string, ref: string): Result<string, string> {
  const match = REF.exec(ref.trim());
  if (!match) return { ok: false, error: `'${ref.slice(0, 80)}' is not a ref: refs look like ctx-lens:0123456789abcdef` };
  try {
    return { ok: true, value: redactSecrets(readFileSync(join(dir, `${match[1]}.txt`), 'utf8')) };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { ok: false, error: `nothing archived under ${ref.trim()}` };
    return { ok: false, error: `cannot read ${ref.trim()}: ${error instanceof Error ? error.message : String(error)}` };
  }
}
