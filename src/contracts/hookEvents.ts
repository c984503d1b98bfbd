// The hook events file: written by `ctxlens hook` (a process Claude Code starts) and read by
// the panel's History (the extension host), two processes that may run different versions of us.
// One module owns the shape of a line (zod, checked on both sides); its place and the settings the
// hooks read are in hooks.ts (no zod), re-exported here, so writer and reader cannot drift apart.
import { z } from 'zod';
import { HOOK_NAMES } from './hooks';
import { parseJson } from '../base/json';

export { HOOK_NAMES, HOOK_SETTINGS, hookEventsPath, SETTINGS_SECTION, settingId, type HookName } from './hooks';

/** Longest text a line keeps (a focus, an error): one long error must not fill the file or the panel. */
export const HOOK_EVENT_TEXT_MAX = 500;

const text = z
  .string()
  .transform((value) => (value.length > HOOK_EVENT_TEXT_MAX ? `${value.slice(0, HOOK_EVENT_TEXT_MAX - 1)}…` : value))
  .nullable()
  .catch(null);
const count = z.number().int().nonnegative().catch(0);

/**
 * One hook run. Only `time`, `hook` and `sessionId` are required (without them a run cannot be matched
 * to a compaction; a run whose input named no session says so with an empty id); any other field missing or mistyped reads as nothing, so a line written by an
 * older or newer version still counts.
 */
export const hookEventSchema = z.object({
  time: z.string().refine((value) => !Number.isNaN(Date.parse(value))),
  hook: z.enum(HOOK_NAMES),
  /** The agent whose hook ran (absent in lines written before other agents had hooks: Claude Code). */
  agent: text.optional().default(null),
  /** Empty when the hook input named none (the run is logged for its error, matched to nothing). */
  sessionId: z.string(),
  trigger: text.optional().default(null),
  source: text.optional().default(null),
  /** The focus Claude Code passed (`/compact <focus>`). */
  focus: text.optional().default(null),
  /** The workspace's standing focus the hook added (pre-compact). */
  workspaceFocus: text.optional().default(null),
  constraints: count.optional().default(0),
  openLoops: count.optional().default(0),
  /** The hook printed a pinned block for Claude Code. */
  printed: z.boolean().catch(false).optional().default(false),
  error: text.optional().default(null),
});
export type HookEventLine = z.infer<typeof hookEventSchema>;

/** A line as the hook writes it (without its newline). */
export function formatHookEvent(event: HookEventLine): string {
  return JSON.stringify(hookEventSchema.parse(event));
}

/** A line of the file, or null for a torn, foreign or invalid one. Never throws. */
export function parseHookEvent(line: string): HookEventLine | null {
  const parsed = hookEventSchema.safeParse(parseJson(line));
  return parsed.success ? parsed.data : null;
}
