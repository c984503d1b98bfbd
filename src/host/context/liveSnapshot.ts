// One read of the followed session, turned into what the panel derives everything from. Free of
// `vscode`: the ContextModel decides when to build one, this decides how.
import { plan, type CompactionPlan, type Context } from '../../engine';
import { adapterOf } from '../../sessions/agents';
import { engineContextOf } from '../../sessions/engineContext';
import type { LiveContext, Result, SessionInfo } from '../../sessions/types';
import { compactOptionsOf } from '../compaction/run';
import type { Settings } from '../settings';
import { breakdownOf } from './derive';
import type { Breakdown, Choices } from '../../protocol/messages';
import { NO_CHOICES } from './choices';

export interface LiveSnapshot {
  readonly live: LiveContext;
  readonly context: Context;
  readonly breakdown: Breakdown;
  readonly reservedOutputTokens: number;
}

/** Reads the live context and sizes its items from the agent's recorded usage. */
export async function readSnapshot(session: SessionInfo, windowOverride: number): Promise<Result<LiveSnapshot>> {
  const adapter = adapterOf(session.agent);
  const read = await adapter.readLiveContext(session, { windowOverride });
  if (!read.ok) return read;
  const live = read.value;
  // Each step runs on the extension host's thread: let other work (a panel's first state, a
  // keystroke in the editor) run between them instead of one long block.
  await nextTurn();
  const context = engineContextOf(live);
  await nextTurn();
  return { ok: true, value: { live, context, breakdown: breakdownOf(context), reservedOutputTokens: adapter.reservedOutputTokens(live.fill) } };
}

function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * What Compact… would do with the options it runs with by default (the workspace's standing focus
 * and the person's choices),
 * so the map never promises to keep what Compact… drops. The summary is the heuristic one: `plan`
 * calls no LLM and does no I/O, so this runs on every change.
 */
export function livePlan(snapshot: LiveSnapshot, settings: Pick<Settings, 'engine' | 'compactionFocus'>, choices: Choices = NO_CHOICES): CompactionPlan {
  return plan(snapshot.context, compactOptionsOf(settings.engine, settings.compactionFocus, choices));
}
