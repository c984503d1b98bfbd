// What the hook commands, the adapters and the panel share about the hooks, without the shape of an
// events line (hookEvents.ts, which needs zod): where the events file is, the hook names, and the
// workspace settings the hooks read. Apart so that reading a session (every adapter names the hooks)
// never loads zod.
import { homedir } from 'node:os';
import { join } from 'node:path';

/** `$XDG_STATE_HOME/context-lens/hook-events.jsonl`; an empty variable counts as unset. */
export function hookEventsPath(env: Readonly<Record<string, string | undefined>>): string {
  return join(env.XDG_STATE_HOME || join(env.HOME || homedir(), '.local', 'state'), 'context-lens', 'hook-events.jsonl');
}

/** `before-agent`: Gemini CLI's BeforeAgent, the one way into its context (it adds the block only after a compression). */
export const HOOK_NAMES = ['pre-compact', 'session-start', 'before-agent'] as const;
export type HookName = (typeof HOOK_NAMES)[number];

/**
 * The `contextLens.*` settings the hooks read from the workspace's `.vscode/settings.json`, as the
 * extension declares them (package.json) and reads them (host/settings.ts).
 */
export const SETTINGS_SECTION = 'contextLens';
export const HOOK_SETTINGS = {
  pinnedConstraints: 'preserve.pinnedConstraints',
  extractPinned: 'preserve.extractPinned',
  promptBudgetPercent: 'preserve.promptBudgetPercent',
  focus: 'compaction.focus',
} as const;

/** `contextLens.preserve.pinnedConstraints` and the like: the key in a settings.json file. */
export const settingId = (key: (typeof HOOK_SETTINGS)[keyof typeof HOOK_SETTINGS]): string => `${SETTINGS_SECTION}.${key}`;
