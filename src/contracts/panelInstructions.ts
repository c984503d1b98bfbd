// The file the panel leaves for every live proxy about one agent session (proxy/panelInstructions.ts
// writes and reads it): what both ends agree on, checked with zod on every read, so the extension's
// writer and a proxy started in a terminal from another build cannot drift apart silently.
// `toolCalls` lets a proxy find the session of a request that names none (Gemini CLI, OpenCode):
// the session's tool call ids as its requests carry them.
import { z } from 'zod';

/** A session id as a file name: UUIDs (Claude Code, Codex, Gemini CLI), `ses_…` (OpenCode), digits (Cline). No dot, no slash. */
export const PANEL_SESSION_ID = /^[A-Za-z0-9_-]{1,128}$/;

/** Ids per list: a session's tool calls number in the thousands at most; the newest are kept past it. */
export const PANEL_MAX_IDS = 20_000;

const ids = z.array(z.string().min(1).max(200)).max(PANEL_MAX_IDS);

export const panelInstructionsSchema = z.object({
  v: z.literal(1),
  agentSession: z.string().regex(PANEL_SESSION_ID),
  time: z.string().refine((value) => !Number.isNaN(Date.parse(value))),
  windowTokens: z.number().int().positive().max(100_000_000).optional(),
  triggerPercent: z.number().positive().lt(100).optional(),
  // The settings' engine knobs: checked for what the proxy reads itself; the engine tolerates the rest.
  engine: z
    .looseObject({
      targetPercent: z.number().positive().lt(100).optional(),
      focus: z.string().max(2_000).optional(),
      summary: z.looseObject({ enabled: z.boolean().optional() }).optional(),
    })
    .optional(),
  keep: ids,
  drop: ids,
  /** The session's tool call ids as sent on the wire, oldest first; absent in files of older builds. */
  toolCalls: ids.optional(),
});
export type PanelInstructionsFile = z.infer<typeof panelInstructionsSchema>;
