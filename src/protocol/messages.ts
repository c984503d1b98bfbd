// Host↔webview message descriptors. Both sides validate what they receive with these schemas:
// the webview is an untrusted boundary, and a stale webview may talk to a newer host.
import { z } from 'zod';

export const thresholdsSchema = z.object({
  triggerPercent: z.number().min(1).max(100),
  targetPercent: z.number().min(1).max(100),
  safetyNetPercent: z.number().min(1).max(100),
  /** Where the agent itself compacts, as a percent of the window; null when unknown. */
  agentAutoCompactPercent: z.number().min(0).max(100).nullable(),
});
export type Thresholds = z.infer<typeof thresholdsSchema>;

export const sessionSummarySchema = z.object({
  id: z.string(),
  title: z.string(),
  agent: z.string(),
  model: z.string().nullable(),
  path: z.string(),
  live: z.boolean(),
});
export type SessionSummary = z.infer<typeof sessionSummarySchema>;

export const fillSchema = z.object({
  usedTokens: z.number().int().nonnegative(),
  windowTokens: z.number().int().positive(),
  /** "usage" = exact, from the last response the agent recorded; "estimate" = tokenizer. */
  source: z.enum(['usage', 'estimate']),
});
export type Fill = z.infer<typeof fillSchema>;

export const emptyReasonSchema = z.enum(['noWorkspace', 'noSession', 'waitingForUsage']);
export type EmptyReason = z.infer<typeof emptyReasonSchema>;

export const panelStateSchema = z.object({
  session: sessionSummarySchema.nullable(),
  fill: fillSchema.nullable(),
  thresholds: thresholdsSchema,
  empty: emptyReasonSchema.nullable(),
  diagnostics: z.array(z.string()).max(50),
});
export type PanelState = z.infer<typeof panelStateSchema>;

export const hostMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('state'), state: panelStateSchema }),
]);
export type HostMessage = z.infer<typeof hostMessageSchema>;

/** Commands the webview may ask the host to run; anything else is rejected on receipt. */
export const webviewCommandSchema = z.enum(['openTranscript', 'selectSession', 'openSettings', 'showLog']);
export type WebviewCommand = z.infer<typeof webviewCommandSchema>;

export const webviewMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready') }),
  z.object({ type: z.literal('command'), command: webviewCommandSchema }),
]);
export type WebviewMessage = z.infer<typeof webviewMessageSchema>;

export type Parsed<T> = { ok: true; value: T } | { ok: false; error: string };

function parseWith<T>(schema: z.ZodType<T>, raw: unknown): Parsed<T> {
  const result = schema.safeParse(raw);
  if (result.success) return { ok: true, value: result.data };
  return { ok: false, error: z.prettifyError(result.error) };
}

export const parseHostMessage = (raw: unknown): Parsed<HostMessage> => parseWith(hostMessageSchema, raw);
export const parseWebviewMessage = (raw: unknown): Parsed<WebviewMessage> => parseWith(webviewMessageSchema, raw);
