// Loading a transcript's live context for `inspect` and `compact`: the same resolution, window
// override and errors for both.
import type { Context } from '../engine';
import { engineContextOf } from '../sessions/engineContext';
import type { AgentAdapter } from '../sessions/port';
import type { LiveContext } from '../sessions/types';
import { AGENT_OPTION, agentOption, HOME_OPTIONS, inputError, positiveInt, resolveSession, type HomeValues, type Io } from './io';

export const LIVE_OPTIONS = {
  ...HOME_OPTIONS,
  ...AGENT_OPTION,
  window: { type: 'string' },
  json: { type: 'boolean' },
} as const;

export interface Loaded {
  live: LiveContext;
  context: Context;
  /** The agent that wrote the session: it writes the fork too. */
  adapter: AgentAdapter;
}

export async function loadLive(target: string | undefined, values: HomeValues & { agent?: string; window?: string }, io: Io): Promise<Loaded> {
  const windowOverride = positiveInt(values.window, '--window');
  const { path, adapter } = await resolveSession(target, values, io, agentOption(values.agent));
  const session = await adapter.readSessionInfo(path);
  if (!session.ok) throw inputError(session.error.message);
  const live = await adapter.readLiveContext(session.value, { env: io.env, ...(windowOverride ? { windowOverride } : {}) });
  if (!live.ok) throw inputError(live.error.message);
  return { live: live.value, context: engineContextOf(live.value), adapter };
}
