// What each subagent listed in Select Session… cost: its own transcript's calls, its fill and
// dollars, read after the picker is shown (a first read of a long transcript takes a moment; later
// ones read only what was appended). Free of `vscode`.
import type { PriceIndex } from '../../pricing';
import { adapterOf } from '../../sessions/agents';
import { parentPromptAt, transcriptCost, type TranscriptCost } from '../../sessions/costReport';
import type { SessionCall, SessionInfo } from '../../sessions/types';

/** Subagents priced at most: a folder of thousands is listed, not read whole. */
export const MAX_PRICED_SUBAGENTS = 500;

/** By transcript path; a subagent whose file cannot be read is left out (its row shows no cost). */
export async function subagentCosts(index: PriceIndex, sessions: readonly SessionInfo[]): Promise<Map<string, TranscriptCost>> {
  const costs = new Map<string, TranscriptCost>();
  // Each parent's calls read once: what its context was when each of its subagents started.
  const parents = new Map<string, readonly SessionCall[] | null>();
  for (const session of sessions.filter((candidate) => candidate.isSidechain).slice(0, MAX_PRICED_SUBAGENTS)) {
    const read = await adapterOf(session.agent).readSessionCalls(session);
    if (!read.ok) continue;
    const cost = transcriptCost(index, read.value.calls, read.value.sequence);
    const parent = sessions.find((candidate) => !candidate.isSidechain && candidate.id === session.parentSessionId);
    const parentCalls = parent === undefined ? null : await parentSequence(parents, parent);
    costs.set(session.path, { ...cost, parentTokens: parentCalls === null ? null : parentPromptAt(parentCalls, cost.firstAt ?? null) });
  }
  return costs;
}

async function parentSequence(read: Map<string, readonly SessionCall[] | null>, parent: SessionInfo): Promise<readonly SessionCall[] | null> {
  if (!read.has(parent.path)) {
    const calls = await adapterOf(parent.agent).readSessionCalls(parent);
    read.set(parent.path, calls.ok ? (calls.value.sequence ?? calls.value.calls) : null);
  }
  return read.get(parent.path) ?? null;
}
