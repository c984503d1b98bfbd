// What each subagent listed in Select Session… cost: its own transcript's calls, its fill and
// dollars, read after the picker is shown (a first read of a long transcript takes a moment; later
// ones read only what was appended). Free of `vscode`.
import type { PriceIndex } from '../../pricing';
import { adapterOf } from '../../sessions/agents';
import { transcriptCost, type TranscriptCost } from '../../sessions/costReport';
import type { SessionInfo } from '../../sessions/types';

/** Subagents priced at most: a folder of thousands is listed, not read whole. */
export const MAX_PRICED_SUBAGENTS = 500;

/** By transcript path; a subagent whose file cannot be read is left out (its row shows no cost). */
export async function subagentCosts(index: PriceIndex, sessions: readonly SessionInfo[]): Promise<Map<string, TranscriptCost>> {
  const costs = new Map<string, TranscriptCost>();
  for (const session of sessions.filter((candidate) => candidate.isSidechain).slice(0, MAX_PRICED_SUBAGENTS)) {
    const read = await adapterOf(session.agent).readSessionCalls(session);
    if (read.ok) costs.set(session.path, transcriptCost(index, read.value.calls));
  }
  return costs;
}
