// Where Context Lens keeps what it may forget (indexes of transcripts, compiled code, pinned tools):
// one private folder per user, named the same way by every process (and script) that writes there.
// Under base/node: it reads the environment and the home folder, which the pure engine never does.
import { homedir } from 'node:os';
import { join } from 'node:path';

/** `$CONTEXT_LENS_CACHE`, else `$XDG_CACHE_HOME/context-lens`, else `~/.cache/context-lens`. */
export function cacheRoot(env: Readonly<Record<string, string | undefined>> = process.env): string {
  return env.CONTEXT_LENS_CACHE || join(env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'context-lens');
}
