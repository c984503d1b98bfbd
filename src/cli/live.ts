// Loading a transcript's live context for `inspect` and `compact`: the same resolution, window
// override and errors for both.
import { resolve } from 'node:path';
import type { Context } from '../engine';
import { holdFile } from '../sessions/handle/heldFile';
import { openSession } from '../sessions/handle/open';
import type { AgentAdapter, SessionHandle } from '../sessions/port';
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
  /** Everything else read of the session (its calls) goes through it; the caller disposes it. */
  handle: SessionHandle;
}

/**
 * The session named by `target`, read once: the file is held open from the first look at it (which
 * agent wrote it, its listing) to the end of the command, so it is opened once (handle/heldFile.ts).
 */
export async function loadLive(target: string | undefined, values: HomeValues & { agent?: string; window?: string }, io: Io): Promise<Loaded> {
  const windowOverride = positiveInt(values.window, '--window');
  const early = target === undefined || target === '' ? null : holdFile(resolve(target));
  try {
    const { path, adapter } = await resolveSession(target, values, io, agentOption(values.agent));
    const session = await adapter.readSessionInfo(path);
    if (!session.ok) throw inputError(session.error.message);
    const handle = openSession(adapter, session.value, { env: io.env, ...(windowOverride ? { windowOverride } : {}) });
    const read = await handle.liveContext();
    if (!read.ok) {
      await handle.dispose();
      throw inputError(read.error.message);
    }
    return { ...read.value, adapter, handle };
  } finally {
    await early?.release();
  }
}
