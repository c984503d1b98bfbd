// What Select Session… lists: each session followed by its subagents (they belong to it, indented,
// each with its calls, fill and cost once read), forks Context Lens wrote marked as such, so a fork
// and its original never look alike. Free of `vscode` so the order and wording are unit-tested.
import { adapterOf } from '../../sessions/agents';
import { formatTokens, formatUsd } from '../../protocol/format';
import { startedWithText, type TranscriptCost } from '../../sessions/costReport';
import { lastActiveMs, type SessionInfo } from '../../sessions/types';
import { plural } from '../../base/format';

export interface PickerItem {
  label: string;
  description: string;
  detail: string;
  session: SessionInfo;
}

/**
 * Sessions as listed (newest first) → picker rows: a main session, then its subagents. `costs`: what
 * each subagent cost, by transcript path (subagentCosts.ts); a parent row sums its subagents'.
 */
export function pickerItems(sessions: readonly SessionInfo[], now = Date.now(), costs: ReadonlyMap<string, TranscriptCost> = new Map()): PickerItem[] {
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
    ...main.flatMap((session) => {
      const subagents = byParent.get(session.id) ?? [];
      return [row(session, now, costs, undefined, subagents), ...subagents.map((subagent) => row(subagent, now, costs, session))];
    }),
    ...orphans.map((subagent) => row(subagent, now, costs)),
  ];
}

/** "7 calls · fill 12.5k · $0.12 · started with 84k: most of its parent's 96k context" (or "no price for <model>"). */
export function subagentCostFacts(cost: TranscriptCost): string {
  const dollars = cost.unpriced.length > 0 && cost.usd === 0 ? `no price for ${cost.unpriced.join(', ')}` : formatUsd(cost.usd);
  const started = cost.firstPromptTokens ? ` · ${startedWithText(cost.firstPromptTokens, cost.parentTokens ?? null, formatTokens)}` : '';
  return `${plural(cost.calls, 'call')} · fill ${formatTokens(cost.tokens)} · ${dollars}${started}`;
}

function row(
  session: SessionInfo,
  now: number,
  costs: ReadonlyMap<string, TranscriptCost>,
  parent?: SessionInfo,
  subagents: readonly SessionInfo[] = [],
): PickerItem {
  // The agent first: a workspace can hold sessions of both, with the same titles.
  const facts = [adapterOf(session.agent).name, session.model ?? 'no response yet', formatAge(lastActiveMs(session), now), formatSize(session.sizeBytes)];
  // The costs open the second line: a long title cuts the first one short.
  const cost = costs.get(session.path);
  const priced = subagents.flatMap((subagent) => costs.get(subagent.path) ?? []);
  const costFacts =
    session.isSidechain && cost !== undefined
      ? subagentCostFacts(cost)
      : priced.length > 0
        ? `${subagents.length} subagent${subagents.length === 1 ? '' : 's'} ${formatUsd(priced.reduce((sum, agent) => sum + agent.usd, 0))}`
        : null;
  if (session.forkOf) facts.unshift('compacted by Context Lens');
  if (session.isSidechain) facts.unshift(parent ? `subagent of “${parent.title}”` : `subagent of ${session.parentSessionId ?? 'an unknown session'}`);
  const icon = session.isSidechain ? '$(type-hierarchy-sub) ' : session.forkOf ? '$(repo-forked) ' : '';
  // A fork has its original's title: "Fork ·" leads the label, where a long title cut short cannot hide
  // it, and the second line (the full width) names the original.
  const fork = session.forkOf ? 'Fork · ' : '';
  const origin = session.forkOf
    ? `fork of “${session.forkOf.title ?? 'another session'}”${session.forkOf.sessionId ? ` (${session.forkOf.sessionId.slice(0, 8)})` : ''}`
    : null;
  const detail = [origin, costFacts, session.path].filter((part) => part !== null).join(' · ');
  return { label: `${session.isSidechain && parent ? '    ' : ''}${icon}${fork}${session.title}`, description: facts.join(' · '), detail, session };
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
