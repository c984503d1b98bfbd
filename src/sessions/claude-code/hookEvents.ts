// Where `context-lens hook` logs its runs: one JSON object per line, appended by the CLI
// (src/cli/hook.ts) and read back by the panel's History (src/host/history/hookEvents.ts).
import { homedir } from 'node:os';
import { join } from 'node:path';

/** `$XDG_STATE_HOME/context-lens/hook-events.jsonl`; an empty variable counts as unset. */
export function hookEventsPath(env: Readonly<Record<string, string | undefined>>): string {
  return join(env.XDG_STATE_HOME || join(env.HOME || homedir(), '.local', 'state'), 'context-lens', 'hook-events.jsonl');
}
