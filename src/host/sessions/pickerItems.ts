// What Select Session… lists: each session followed by its subagents (they belong to it, indented),
// forks Context Lens wrote marked as such, so a fork and its original never look alike. Free of
// `vscode` so the order and wording are unit-tested.
import { adapterOf } from '../../sessions/agents';
import type { SessionInfo } from '../../sessions/types';

export interface PickerItem {
  label: string;
  description: string;
  detail: string;
  session: SessionInfo;
}

/** Sessions as listed (newest first) → picker rows: a main session, then its subagents. */
export function pickerItems(sessions: readonly SessionInfo[], now = Date.now()): PickerItem[] {
  const main = sessions.filter((session) => !session.isSidechain);
  const byParent = new Map<string, SessionInfo[]>();
  for (const session of sessions) {
    if (!session.isSidechain) continue;
    const parent = session.parentSessionId ?? '';
    byParent.set(parent, [...(byParent.get(parent) ?? []), session]);
  }
  const known = new Set(main.map((session) => session.id));
  const orphans = sessions.filter((session) => session.isSidechain && !known.has(session.parentSessionId ?? ''));
  return [
    ...main.flatMap((session) => [row(session, now), ...(byParent.get(session.id) ?? []).map((subagent) => row(subagent, now, session))]),
    ...orphans.map((subagent) => row(subagent, now)),
  ];
}

function row(session: SessionInfo, now: number, parent?: SessionInfo): PickerItem {
  // The agent first: a workspace can hold sessions of both, with the same titles.
  const facts = [adapterOf(session.agent).name, session.model ?? 'no response yet', formatAge(session.lastActivityMs, now), formatSize(session.sizeBytes)];
  if (session.forkOf) facts.unshift(`fork of “${session.forkOf.title ?? session.forkOf.sessionId ?? 'another session'}”, compacted by Context Lens`);
  if (session.isSidechain) facts.unshift(parent ? `subagent of “${parent.title}”` : `subagent of ${session.parentSessionId ?? 'an unknown session'}`);
  const icon = session.isSidechain ? '$(type-hierarchy-sub) ' : session.forkOf ? '$(repo-forked) ' : '';
  return { label: `${session.isSidechain && parent ? '    ' : ''}${icon}${session.title}`, description: facts.join(' · '), detail: session.path, session };
}

export function formatAge(ms: number, now = Date.now()): string {
  const minutes = Math.round((now - ms) / 60_000);
  if (minutes < 1) return 'just now';
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.round(minutes / 60);
  return hours < 48 ? `${hours} h ago` : `${Math.round(hours / 24)} days ago`;
}

export function formatSize(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
  return `${Math.max(1, Math.round(bytes / 1024))} KB`;
}
