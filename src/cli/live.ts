// Loading a transcript's live context for `inspect` and `compact`: the same resolution, window
// override and errors for both.
import type { Context } from '../engine/model';
import type { Tokenizer } from '../engine/tokens/tokenizer';
import { engineContextOf, readLiveContext } from '../sessions/claude-code';
import type { LiveContext } from '../sessions/types';
import { CONFIG_DIR_OPTION, configDirOptions, inputError, positiveInt, resolveTranscript, type Io } from './io';

export const LIVE_OPTIONS = {
  ...CONFIG_DIR_OPTION,
  window: { type: 'string' },
  json: { type: 'boolean' },
} as const;

export interface Loaded {
  live: LiveContext;
  context: Context;
}

/** `tokenizer`: how items are counted before scaling to the exact total (default: the engine's o200k). */
export async function loadLive(target: string | undefined, values: { 'config-dir'?: string[]; window?: string }, io: Io, tokenizer?: Tokenizer): Promise<Loaded> {
  const windowOverride = positiveInt(values.window, '--window');
  const path = await resolveTranscript(target, configDirOptions(values['config-dir'], io));
  const live = await readLiveContext(path, { env: io.env, ...(windowOverride ? { windowOverride } : {}) });
  if (!live.ok) throw inputError(live.error.message);
  return { live: live.value, context: engineContextOf(live.value, tokenizer) };
}
