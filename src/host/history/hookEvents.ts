// What our hooks did around each of the agent's own compactions, read from the events file
// `ctxlens hook` appends to: Claude Code's and OpenCode's pre-compact (the block for the summariser)
// and session-start (the block put back after it), Codex's session-start, Gemini CLI's before-agent
// (the block added to the turn its compression keeps). Matched by hook kind, never by agent. Free of `vscode`. Another process writes that file and nothing
// rotates it, so only its tail is read and every line is treated as untrusted.
import { parseHookEvent, type HookEventLine } from '../../contracts/hookEvents';
import type { HookActivity } from '../../protocol/messages';
import { EVENTS_TAIL_BYTES, readTail } from '../events/readTail';
import type { CompactionEvent } from '../../sessions/types';

/** The pre-compact hook runs just before the boundary is written; both clocks are read separately. */
export const CLOCK_TOLERANCE_MS = 5_000;
/** How long after a boundary its session-start run is looked for. */
export const SESSION_START_WINDOW_MS = 5 * 60_000;
/**
 * How long before a boundary a before-agent run may have added the block to the turn that the
 * compaction then keeps (Gemini CLI fires BeforeAgent, then compresses: the summariser's call in between).
 */
export const BEFORE_AGENT_LEAD_MS = 2 * 60_000;

/** A run that puts the block back into the context around a compaction (as opposed to pre-compact's, for the summariser). */
function reinjects(run: HookEvent): boolean {
  if (run.hook === 'session-start') return run.source === 'compact';
  // before-agent runs on every turn: only those that printed (or failed) have anything to say.
  return run.hook === 'before-agent' && (run.printed || run.error !== null);
}

/** One logged hook run, as the contract reads it, with its time parsed. */
export interface HookEvent extends Omit<HookEventLine, 'time'> {
  timeMs: number;
}

/** Parses the file's lines; torn, invalid or foreign lines are skipped (see the contract). Never throws. */
export function parseHookEvents(text: string): HookEvent[] {
  return text.split('\n').flatMap((line) => {
    const event = parseHookEvent(line);
    if (event === null) return [];
    const { time, ...rest } = event;
    return [{ ...rest, timeMs: Date.parse(time) }];
  });
}

/** The events in the file's tail; a missing file has none. Other read errors are thrown. */
export async function readHookEvents(path: string, maxBytes = EVENTS_TAIL_BYTES): Promise<HookEvent[]> {
  return parseHookEvents(await readTail(path, maxBytes));
}

/**
 * The hook runs around each of the session's compactions, by boundary uuid. A compaction's
 * pre-compact run is the newest one since the previous boundary and no later than its own (give or
 * take the clock tolerance); its re-injecting run is the first one after that pre-compact run, or
 * after the boundary when none was found, within a few minutes: a session-start (source "compact"),
 * or a before-agent that printed the block, which may also come shortly before the boundary. A run
 * that printed is preferred over one that did not (OpenCode's plugin asks once during the
 * compaction, before the session records it, and again after).
 */
export function hookActivityOf(sessionId: string, compactions: readonly CompactionEvent[], events: readonly HookEvent[]): Map<string, HookActivity> {
  const runs = events.filter((event) => event.sessionId === sessionId).sort((a, b) => a.timeMs - b.timeMs);
  const boundaries = compactions
    .map((compaction) => ({ uuid: compaction.uuid, at: compaction.timestamp === null ? Number.NaN : Date.parse(compaction.timestamp) }))
    .filter((boundary) => !Number.isNaN(boundary.at))
    .sort((a, b) => a.at - b.at);
  const activity = new Map<string, HookActivity>();
  let previous = Number.NEGATIVE_INFINITY;
  for (const { uuid, at } of boundaries) {
    const after = previous + CLOCK_TOLERANCE_MS;
    const pre = runs.findLast((run) => run.hook === 'pre-compact' && run.timeMs > after && run.timeMs <= at + CLOCK_TOLERANCE_MS);
    const from = pre?.timeMs ?? at - CLOCK_TOLERANCE_MS;
    const leadFrom = Math.max(after, at - BEFORE_AGENT_LEAD_MS);
    const candidates = runs.filter(
      (run) => reinjects(run) && run.timeMs >= (run.hook === 'before-agent' ? Math.min(from, leadFrom) : from) && run.timeMs <= at + SESSION_START_WINDOW_MS,
    );
    const start = candidates.find((run) => run.printed) ?? candidates[0];
    previous = at;
    if (pre === undefined && start === undefined) continue;
    activity.set(uuid, {
      preCompact: pre ? { constraints: pre.constraints, openLoops: pre.openLoops, workspaceFocus: pre.workspaceFocus, error: pre.error } : null,
      sessionStart: start ? { printed: start.printed, error: start.error, constraints: start.constraints, openLoops: start.openLoops } : null,
    });
  }
  return activity;
}
