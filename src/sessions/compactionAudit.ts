// The agent's own compactions, audited (engine/audit): for each, the context as it stood before it
// and what the agent kept (its summary and the messages it kept), for `inspect`, the panel's History
// and Redo. An adapter that can say what stood on either side of a compaction does
// (`readCompaction`: a database's rows, a chat's rewritten history); otherwise the context before it
// is the session file read up to the compaction's record: an append-only transcript's first bytes are
// the session as it was then (common/filePrefix.ts), so every agent whose compactions carry a byte
// offset (Claude Code, Codex) is audited the same way.
import { auditCompaction, type CompactionAudit, type Context } from '../engine';
import { readFilePrefix } from './common/filePrefix';
import { engineContextOf } from './engineContext';
import type { AgentAdapter } from './port';
import { fail, ok } from './result';
import type { CompactionEvent, LiveContext, Result } from './types';

export interface Before {
  /** The live context as it stood before the compaction, its session the original one (a fork is written beside it). */
  live: LiveContext;
  context: Context;
  /** What the agent kept (its summary and the messages after it), when its adapter reads the compaction's sides; else `keptText`. */
  kept?: string;
}

/**
 * Items at the head of the context after a compaction, before the model speaks again: what the
 * compaction wrote (its summary, re-attached files; Codex keeps the person's messages too) and the
 * next prompt, which the model reads with them.
 */
const KEPT_KINDS = new Set(['summary', 'reminder', 'system', 'tools', 'user']);

/** The session as it stood just before `event`, read through `adapter` (its own sides, else a copy of the file's bytes before it). */
export async function contextBefore(adapter: AgentAdapter, live: LiveContext, event: CompactionEvent): Promise<Result<Before>> {
  if (event.by === 'agent' && adapter.readCompaction !== undefined) {
    const sides = await adapter.readCompaction(live, event);
    if (!sides.ok) return sides;
    const before: LiveContext = { ...sides.value.before, session: live.session };
    return ok({ live: before, context: engineContextOf(before), kept: keptOf(event, engineContextOf(sides.value.after)) });
  }
  if (event.by !== 'agent' || event.offset === undefined || event.offset <= 0)
    return fail('invalid-input', 'This compaction has no place in the file to read the context before it from', live.session.path);
  const read = await readPrefix(adapter, live, event.offset);
  if (!read.ok) return read;
  // Read from the copy, written beside the original: a fork of it goes where Apply puts forks.
  const before: LiveContext = {
    ...read.value,
    session: live.session,
    compactions: live.compactions.filter((other) => other.offset !== undefined && other.offset < (event.offset as number)),
  };
  return ok({ live: before, context: engineContextOf(before) });
}

function readPrefix(adapter: AgentAdapter, live: LiveContext, end: number): Promise<Result<LiveContext>> {
  return readFilePrefix(live.session.path, end, (copy) => adapter.readLiveContext({ ...live.session, path: copy }));
}

/** What the agent's own account of a compaction kept: its summary and every message of the context right after it. */
function keptOf(event: CompactionEvent, after: Context): string {
  const texts = after.items.filter((item) => item.kind !== 'system' && item.kind !== 'tools').map((item) => item.text);
  return [event.summary ?? '', ...texts].join('\n\n');
}

/** The text the agent kept at `event`: its summary and what the context after it opens with before the conversation goes on. */
export function keptText(event: CompactionEvent, after: Context | null): string {
  const head: string[] = [];
  for (const item of after?.items ?? []) {
    if (!KEPT_KINDS.has(item.kind)) break;
    if (item.kind !== 'system' && item.kind !== 'tools') head.push(item.text);
  }
  return [event.summary ?? '', ...head].join('\n\n');
}

/**
 * Redo's target when the person names none: what the agent's own compaction left (its post count),
 * so the two are compared at the same size; without one, 40 % of the context before it.
 */
export function redoTargetTokens(event: CompactionEvent, before: Context): number {
  return Math.max(1, event.postTokens ?? Math.round(before.usedTokens * 0.4));
}

export interface AuditedCompaction {
  /** Index into `live.compactions`. */
  index: number;
  audit: CompactionAudit;
}

/**
 * Every agent compaction of the session that can be audited: what it carried and dropped. The
 * context after the latest one is the live context; after an earlier one, the file up to the next.
 */
export async function auditCompactions(
  adapter: AgentAdapter,
  live: LiveContext,
  context: Context,
  limit = 10,
  known: (event: CompactionEvent) => boolean = () => false,
): Promise<AuditedCompaction[]> {
  const audited: AuditedCompaction[] = [];
  // The latest `limit` first, then those already known left out: a caller that knows the latest ones
  // must not have older ones audited (each a copy and a read of the file) that it will never show.
  const own = adapter.readCompaction !== undefined;
  const events = live.compactions
    .map((event, index) => ({ event, index }))
    .filter(({ event }) => event.by === 'agent' && (own || event.offset !== undefined))
    .slice(-limit)
    .filter(({ event }) => !known(event));
  for (const { event, index } of events) {
    const before = await contextBefore(adapter, live, event);
    if (!before.ok) continue;
    let kept = before.value.kept;
    if (kept === undefined) {
      const next = live.compactions.slice(index + 1).find((other) => other.offset !== undefined);
      let after: Context | null = context;
      if (next?.offset !== undefined) {
        const read = await readPrefix(adapter, live, next.offset);
        after = read.ok ? engineContextOf(read.value) : null;
      }
      kept = keptText(event, after);
    }
    audited.push({ index, audit: auditCompaction(before.value.context.items, kept, before.value.context.workspace) });
  }
  return audited;
}
