// One read of the followed session, turned into what the panel derives everything from. Free of
// `vscode`: the ContextModel decides when to build one, this decides how.
import { plan, type CompactionPlan, type Context } from '../../engine';
import type { AgentAdapter, SessionHandle } from '../../sessions/port';
import type { LiveContext, Result } from '../../sessions/types';
import { compactOptionsOf } from '../compaction/run';
import type { Settings } from '../settings';
import { breakdownOf } from './derive';
import type { Breakdown, Choices } from '../../protocol/messages';
import { NO_CHOICES } from './choices';

export interface LiveSnapshot {
  /** The agent that wrote the session (the handle's): it writes the fork, and names the agent in messages. */
  readonly adapter: AgentAdapter;
  readonly live: LiveContext;
  readonly context: Context;
  readonly breakdown: Breakdown;
  readonly reservedOutputTokens: number;
}

/** The followed session's live context (read once per change by its handle), with its breakdown. */
export async function readSnapshot(handle: SessionHandle): Promise<Result<LiveSnapshot>> {
  const read = await handle.liveContext();
  if (!read.ok) return read;
  const { live, context } = read.value;
  // On the extension host's thread: let other work (a panel's first state, a keystroke) run first.
  await new Promise((resolve) => setImmediate(resolve));
  return {
    ok: true,
    value: { adapter: handle.adapter, live, context, breakdown: breakdownOf(context), reservedOutputTokens: handle.adapter.reservedOutputTokens(live.fill) },
  };
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
