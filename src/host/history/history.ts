// The History section: the agent's own compactions of the session and the ones Context Lens
// applied, newest last. Free of `vscode`; the store persists ours.
import type { ForkView, HistoryEntry, HookActivity, VerificationView } from '../../protocol/messages';
import type { AgentAdapter } from '../../sessions/port';
import type { CompactionEvent, SessionInfo } from '../../sessions/types';
import type { OurCompactionMark } from '../context/timeline';

export const OURS_PER_SESSION = 100;
const HISTORY_MAX = 500;

/** A compaction Context Lens applied, as stored in workspaceState. */
export interface OurCompaction {
  id: string;
  at: string;
  focus: string | null;
  beforeTokens: number;
  afterTokens: number;
  savingsPct: number;
  summary: string | null;
  verification: VerificationView | null;
  fork: ForkView;
}

/**
 * The agent's compactions as the file holds them (read with the live context) plus any the follower
 * saw since, once each, oldest first: the follower alone only reports the ones appended while followed.
 */
export function agentCompactionsOf(inFile: readonly CompactionEvent[], followed: readonly CompactionEvent[]): CompactionEvent[] {
  const seen = new Set<string>();
  const all = [...inFile, ...followed].filter((event) => !seen.has(event.uuid) && seen.add(event.uuid));
  const time = (event: CompactionEvent): number => (event.timestamp === null ? 0 : Date.parse(event.timestamp) || 0);
  return all.sort((a, b) => time(a) - time(b));
}

/**
 * `hooks`: what our Claude Code hooks did around the agent's compactions, by boundary uuid (see
 * hookEvents.ts). `found`: forks of this session found beside it, with the followed session's adapter
 * (it resumes them); those this window did not apply (the CLI, another window) are listed too, so the
 * original names every fork written of it.
 */
export function historyOf(
  agent: readonly CompactionEvent[],
  ours: readonly OurCompaction[],
  hooks: ReadonlyMap<string, HookActivity>,
  found: { readonly forks: readonly SessionInfo[]; readonly adapter: Pick<AgentAdapter, 'resumeCommand'> } | null = null,
): HistoryEntry[] {
  // A fork opens with our own compact boundary; when this window applied it, the stored entry says more.
  const isOurs = (event: CompactionEvent): boolean => ours.some((entry) => entry.beforeTokens === event.preTokens && entry.afterTokens === event.postTokens);
  const entries: HistoryEntry[] = [
    ...agent
      .filter((event) => !isOurs(event))
      .map((event) => ({
        id: event.uuid,
        at: event.timestamp,
        // A fork written elsewhere (the CLI, another window) still says in its boundary that it is ours.
        source: event.by === 'context-lens' ? ('contextLens' as const) : ('agent' as const),
        trigger: event.trigger,
        focus: event.focus,
        beforeTokens: event.preTokens,
        afterTokens: event.postTokens,
        savingsPct: event.preTokens && event.postTokens !== null ? ((event.preTokens - event.postTokens) / event.preTokens) * 100 : null,
        summary: event.summary,
        verification: null,
        fork: null,
        hooks: hooks.get(event.uuid) ?? null,
      })),
    ...ours.map((entry) => ({
      id: entry.id,
      at: entry.at,
      source: 'contextLens' as const,
      trigger: 'manual',
      focus: entry.focus,
      beforeTokens: entry.beforeTokens,
      afterTokens: entry.afterTokens,
      savingsPct: entry.savingsPct,
      summary: entry.summary,
      verification: entry.verification,
      fork: entry.fork,
      hooks: null,
    })),
    ...(found?.forks ?? []).filter((fork) => !ours.some((entry) => entry.fork.sessionId === fork.id)).map((fork) => forkEntry(fork, found!.adapter)),
  ];
  const time = (entry: HistoryEntry): number => (entry.at === null ? 0 : Date.parse(entry.at) || 0);
  entries.sort((a, b) => time(a) - time(b));
  return entries.slice(-HISTORY_MAX);
}

/** A fork found on disk: its counts are in its own file, the entry names it and how to resume it. */
function forkEntry(fork: SessionInfo, adapter: Pick<AgentAdapter, 'resumeCommand'>): HistoryEntry {
  return {
    id: fork.id,
    at: new Date(fork.lastActivityMs).toISOString(),
    source: 'contextLens',
    trigger: 'fork',
    focus: null,
    beforeTokens: null,
    afterTokens: null,
    savingsPct: null,
    summary: null,
    verification: null,
    fork: { sessionId: fork.id, path: fork.path, resumeCommand: adapter.resumeCommand(fork) },
    hooks: null,
  };
}

/**
 * Our compactions the timeline of session `sessionId` marks. An entry is stored under the original
 * and under its fork, but only the fork was compacted: the original's calls go on unchanged, so it
 * gets no mark. The fork's own file opens with our compact boundary, which the timeline already
 * marks from `inFile`; the stored entry stands in only when the file holds none (one mark, not two).
 */
export function timelineMarksOf(ours: readonly OurCompaction[], sessionId: string | null, inFile: readonly CompactionEvent[]): OurCompactionMark[] {
  if (inFile.some((event) => event.by === 'context-lens')) return [];
  return ours
    .filter((entry) => entry.fork.sessionId === sessionId)
    .map((entry) => ({ at: entry.at, beforeTokens: entry.beforeTokens, afterTokens: entry.afterTokens, focus: entry.focus }));
}

/** Adds one entry to a session's list, keeping the newest `OURS_PER_SESSION`. */
export function appended(list: readonly OurCompaction[], entry: OurCompaction): OurCompaction[] {
  return [...list, entry].slice(-OURS_PER_SESSION);
}
