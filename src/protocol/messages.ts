// Host↔webview message descriptors. Both sides validate what they receive with these schemas:
// the webview is an untrusted boundary, and a stale webview may talk to a newer host.
import { z } from 'zod';
import { agentLabelSchema } from './agents';
import type { Result } from '../base/result';

export const thresholdsSchema = z.object({
  triggerPercent: z.number().min(1).max(100),
  targetPercent: z.number().min(1).max(100),
  safetyNetPercent: z.number().min(1).max(100),
  /** Where the agent itself compacts, as a percent of the window; null when unknown. */
  agentAutoCompactPercent: z.number().min(0).max(100).nullable(),
  /** Why a mark is not where its setting says (derived trigger, refused settings). */
  notes: z.array(z.string().max(500)).max(10).default([]),
});
export type Thresholds = z.infer<typeof thresholdsSchema>;

export const sessionSummarySchema = z.object({
  id: z.string(),
  title: z.string(),
  agent: z.string(),
  /** How the panel names the agent (from its adapter). */
  agentLabel: agentLabelSchema,
  model: z.string().nullable(),
  path: z.string(),
  /** Where the session lives in words, when `path` is not a file (see SessionInfo.location). */
  location: z.string().optional(),
  live: z.boolean(),
  /** Title of the session this one was forked from by Context Lens's Apply (null: title unknown). */
  forkOf: z.object({ title: z.string().nullable() }).optional(),
});
export type SessionSummary = z.infer<typeof sessionSummarySchema>;

export const fillSchema = z.object({
  usedTokens: z.number().int().nonnegative(),
  windowTokens: z.number().int().positive(),
  /** "usage" = exact, from the last response the agent recorded; "estimate" = tokenizer. */
  source: z.enum(['usage', 'estimate']),
  /** Estimate of what was written after the last response (a prompt, tool results): not in `usedTokens`. */
  pendingTokens: z.number().int().nonnegative().optional(),
});
export type Fill = z.infer<typeof fillSchema>;

/** readingSession: a session is followed and its first (tail) read is under way. */
export const emptyReasonSchema = z.enum(['noWorkspace', 'noSession', 'readingSession', 'waitingForUsage']);
export type EmptyReason = z.infer<typeof emptyReasonSchema>;

/** Gauge categories, in stacking order. `reminder` covers memory files, reminders and attachments. */
export const CATEGORIES = ['system', 'tools', 'unrecorded', 'reminder', 'user', 'assistant', 'thinking', 'tool_use', 'tool_result', 'summary'] as const;
export const categorySchema = z.enum(CATEGORIES);
export type Category = z.infer<typeof categorySchema>;

const tokens = z.number().int().nonnegative();

export const breakdownSchema = z.array(z.object({ category: categorySchema, tokens })).max(CATEGORIES.length);
export type Breakdown = z.infer<typeof breakdownSchema>;

/** Fill after one API call, oldest first; `event` marks a compaction (the agent's or ours) or the live proxy's edits. */
export const timelinePointSchema = z.object({
  at: z.string().nullable(),
  usedTokens: tokens,
  event: z.object({ kind: z.enum(['agent', 'ours', 'live']), label: z.string().max(500) }).nullable(),
  /** US dollars the call cost; null: no price for its model; absent: not a call (or not known). */
  usd: z.number().nonnegative().nullable().optional(),
  /** The call missed the prompt cache: why, what it cost beyond a hit (null: no price), said in words. */
  cacheMiss: z
    .object({ cause: z.enum(['idle', 'model', 'compaction', 'prefix', 'unknown']), usd: z.number().nonnegative().nullable(), label: z.string().max(300) })
    .optional(),
});
export type TimelinePoint = z.infer<typeof timelinePointSchema>;

export const fateSchema = z.enum(['preserved', 'compacted', 'dropped']);
export type Fate = z.infer<typeof fateSchema>;

/** One context item as the region map shows it. `pinned` items are drawn with the pinned colour. */
export const regionSchema = z.object({
  id: z.number().int().nonnegative(),
  turn: z.number().int().nonnegative(),
  kind: categorySchema,
  label: z.string().max(200),
  tokens,
  tokensAfter: tokens,
  fate: fateSchema,
  reason: z.string().max(1000),
  tier: z.string().nullable(),
  protection: z.string().nullable(),
  pinned: z.boolean(),
  markerCount: z.number().int().nonnegative(),
  /** US dollars carrying this item has cost so far (its share of every prompt it was in); absent: no price. */
  usd: z.number().nonnegative().optional(),
});
export type Region = z.infer<typeof regionSchema>;

export const tierSummarySchema = z.object({
  tier: z.string(),
  items: z.number().int().nonnegative(),
  tokensSaved: z.number().int(),
  note: z.string().nullable(),
});

export const verificationViewSchema = z.object({
  ok: z.boolean(),
  constraintsTotal: z.number().int().nonnegative(),
  constraintsKept: z.number().int().nonnegative(),
  reinjected: z.array(z.string()),
  openLoopsBefore: z.number().int().nonnegative(),
  openLoopsAfter: z.number().int().nonnegative(),
  filesLost: z.array(z.string()),
  /** Summary lines a later item contradicts (stale claims), with that item; none in entries written before they were checked. */
  contradictions: z.array(z.object({ line: z.string(), laterItemId: z.number().int(), laterText: z.string() })).default([]),
});
export type VerificationView = z.infer<typeof verificationViewSchema>;

/** Longest sentence a person may pin from the detail pane. */
export const PIN_MAX = 1_000;

/** The person's own calls, per session until the next Apply: items kept or dropped, sentences pinned. */
export const choicesSchema = z.object({
  keep: z.array(z.number().int().nonnegative()).max(10_000),
  drop: z.array(z.number().int().nonnegative()).max(10_000),
  pins: z.array(z.string().min(1).max(PIN_MAX)).max(100),
});
export type Choices = z.infer<typeof choicesSchema>;

/** One change to the choices, from a map row, its keyboard keys, the detail pane or the choices bar. */
export const choiceActionSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.enum(['keep', 'drop', 'undo']), id: z.number().int().nonnegative() }),
  z.object({ kind: z.enum(['pin', 'unpin']), text: z.string().trim().min(1).max(PIN_MAX) }),
  z.object({ kind: z.literal('clearAll') }),
]);
export type ChoiceAction = z.infer<typeof choiceActionSchema>;

/** What Compact… would do now (its options and default focus, heuristic summary, no LLM), sent only when it changes. */
export const planViewSchema = z.object({
  revision: z.number().int().nonnegative(),
  targetTokens: tokens,
  beforeTokens: tokens,
  afterTokens: tokens,
  savingsPct: z.number(),
  regions: z.array(regionSchema).max(200_000),
  choices: choicesSchema,
});
export type PlanView = z.infer<typeof planViewSchema>;

/** One changed item of a compaction: what it was and what it became (stub, truncation, nothing). */
export const diffBlockSchema = z.object({
  id: z.number().int().nonnegative(),
  label: z.string().max(200),
  fate: fateSchema,
  before: z.string(),
  after: z.string(),
});
export type DiffBlock = z.infer<typeof diffBlockSchema>;

export const forkViewSchema = z.object({ sessionId: z.string(), path: z.string(), resumeCommand: z.string() });
export type ForkView = z.infer<typeof forkViewSchema>;

/** Does a compaction pay: the kept context written once instead of read, then the removed tokens saved on every call. */
export const breakEvenViewSchema = z.object({
  model: z.string().max(200),
  oneOffUsd: z.number().nonnegative(),
  savingPerCallUsd: z.number().nonnegative(),
  breakEvenCalls: z.number().int().positive().nullable(),
  /** "costs $0.41 once, saves $0.12 per call: pays off after 4 calls" */
  sentence: z.string().max(300),
});
export type BreakEvenView = z.infer<typeof breakEvenViewSchema>;

/** Longest warning a preview carries (redacted, then clipped by the host). */
export const PREVIEW_WARNING_MAX = 1_000;
const previewWarning = z.string().max(PREVIEW_WARNING_MAX);

/** A compaction run on request (Compact… / Preview Compaction), shown until applied or cancelled. */
export const previewSchema = z.object({
  id: z.string(),
  focus: z.string(),
  status: z.enum(['compacted', 'noop', 'skipped-low-savings', 'failed-open']),
  message: z.string(),
  summarizer: z.string(),
  beforeTokens: tokens,
  afterTokens: tokens,
  savingsPct: z.number(),
  tiers: z.array(tierSummarySchema),
  verification: verificationViewSchema.nullable(),
  /** The summary exactly as inserted (frame and tags included): the "raw" view. */
  summary: z.string().nullable(),
  /** The same without the anti-injection frame: rendered as Markdown (sanitised) by the panel. */
  summaryReadable: z.string().nullable(),
  targetTokens: tokens,
  targetMet: z.boolean(),
  /** A missed target: by how much and why ("target 30,000 missed by 1,040: …"). Absent in older previews. */
  targetMiss: previewWarning.nullable().optional(),
  /** The configured summarizer failed and the heuristic summary was used instead, and why. */
  summaryFallback: previewWarning.nullable(),
  /** The engine's warning that the result is still above the hard limit. */
  overflow: previewWarning.nullable(),
  /** Secrets masked in what the compaction wrote (metrics.redactions). */
  redactions: z.number().int().nonnegative(),
  diff: z.array(diffBlockSchema),
  regions: z.array(regionSchema).max(200_000),
  /** Set once applied: the new session Claude Code can resume. */
  applied: forkViewSchema.nullable(),
  /** The keep/drop/pin choices this preview was computed with (Apply writes exactly these). */
  choices: choicesSchema.default({ keep: [], drop: [], pins: [] }),
  /**
   * Set when an input changed since this preview was computed (choices, a setting, new records):
   * Apply is refused until it is computed again; `refreshing` while that is under way.
   */
  stale: z
    .object({ why: z.string().max(PREVIEW_WARNING_MAX), refreshing: z.boolean() })
    .nullable()
    .default(null),
  /** The summary's body as the person may edit it (no frame, tags or re-injected block); null without a summary. */
  summaryBody: z.string().nullable().default(null),
  /** The summary is the person's edited text, not the summarizer's. */
  summaryEdited: z.boolean().default(false),
  /** Does this compaction pay (at the rates of the session's latest priced call); null: no price. */
  breakEven: breakEvenViewSchema.nullable().default(null),
});
export type Preview = z.infer<typeof previewSchema>;

/** Longest summary a person may write in the preview. */
export const SUMMARY_EDIT_MAX = 200_000;

/** Longest text a hook detail carries (an error message, a focus); the host clips to it. */
export const HOOK_TEXT_MAX = 500;
const hookText = z.string().max(HOOK_TEXT_MAX);

/** What our hooks (or plugin) did around one of the agent's own compactions, from their events file. */
export const hookActivitySchema = z.object({
  /** `hook pre-compact`, which appended the pinned block to the compaction instructions; null when no run was found. */
  preCompact: z
    .object({
      constraints: z.number().int().nonnegative(),
      openLoops: z.number().int().nonnegative(),
      workspaceFocus: hookText.nullable(),
      error: hookText.nullable(),
    })
    .nullable(),
  /**
   * The run that put the block back into the context after the compaction: `hook session-start`
   * (source "compact"), or a `before-agent` run that added it to the turn the compaction keeps. Its
   * counts are those of the block it printed (absent in a state from an earlier version).
   */
  sessionStart: z
    .object({
      printed: z.boolean(),
      error: hookText.nullable(),
      constraints: z.number().int().nonnegative().optional(),
      openLoops: z.number().int().nonnegative().optional(),
    })
    .nullable(),
});
export type HookActivity = z.infer<typeof hookActivitySchema>;

export const historyEntrySchema = z.object({
  id: z.string(),
  at: z.string().nullable(),
  source: z.enum(['agent', 'contextLens']),
  trigger: z.string(),
  focus: z.string().nullable(),
  beforeTokens: tokens.nullable(),
  afterTokens: tokens.nullable(),
  savingsPct: z.number().nullable(),
  summary: z.string().nullable(),
  verification: verificationViewSchema.nullable(),
  fork: forkViewSchema.nullable(),
  /** Only for the agent's own compactions, when our hooks logged a run around it. */
  hooks: hookActivitySchema.nullable(),
});
export type HistoryEntry = z.infer<typeof historyEntrySchema>;

export const markerSchema = z.object({ phrase: z.string(), start: z.number().int().nonnegative(), end: z.number().int().nonnegative() });

/** Full text of one item for the detail pane, with its epistemic markers' offsets. */
export const itemDetailSchema = z.object({
  id: z.number().int().nonnegative(),
  label: z.string(),
  text: z.string(),
  truncated: z.boolean(),
  markers: z.array(markerSchema),
  fate: fateSchema.nullable(),
  reason: z.string().nullable(),
});
export type ItemDetail = z.infer<typeof itemDetailSchema>;

/**
 * Whether the followed session's agent runs Context Lens's hooks around its own compactions:
 * `none` when it has no hooks Context Lens can use; otherwise how much of Connect is in the first
 * workspace folder's settings.
 */
export const agentHooksSchema = z.object({
  agent: z.string().max(100),
  state: z.enum(['none', 'connected', 'partial', 'disconnected']),
  /** The settings file Connect edits; for `none`, the command the fork is continued with. */
  where: z.string().max(300),
  /** What Connect installs and what it puts into the agent's context, in a sentence (the line's tooltip). */
  detail: z.string().max(600).optional(),
  /** What the agent itself still needs before it runs what Connect wrote (Codex: trusting the folder and the hook). */
  caveat: z.string().max(300).nullable().optional(),
  /** What Connect installs for this agent, as the line names it; absent: hooks. */
  installs: z.enum(['hooks', 'plugin']).optional(),
});
export type AgentHooks = z.infer<typeof agentHooksSchema>;

/** What the live proxy did to one item in what reached the model (by the map's item id). */
export const liveFateSchema = z.object({
  id: z.number().int().nonnegative(),
  /** stubbed (superseded or repeated), cleared (aged out), truncated, or dropped (by the person). */
  fate: z.enum(['stubbed', 'cleared', 'truncated', 'dropped']),
  /** Tokens of the stub that went in its place. */
  tokensSent: tokens,
  /** What `recall` takes to give the original back. */
  ref: z.string().max(100),
});
export type LiveFate = z.infer<typeof liveFateSchema>;

/** The live proxy's last Messages request and its session's totals (see src/host/proxy/liveProxySummary.ts). */
export const liveProxySchema = z.object({
  at: z.string().max(40),
  /** unchanged, sticky, edited or failed-open (the proxy's own words, src/proxy/events.ts). */
  action: z.string().max(20),
  reason: z.string().max(300).nullable(),
  /** What the agent sent and what reached the model after our edits (estimates of the same request). */
  agentTokens: tokens,
  sentTokens: tokens,
  /** The model's exact usage for that request. */
  usage: z.object({ inputTokens: tokens, outputTokens: tokens, cacheReadTokens: tokens, cacheCreationTokens: tokens }).nullable(),
  requests: tokens,
  editedRequests: tokens,
  edits: tokens,
  failedOpen: tokens,
  /** Tokens the agent sent that did not reach the model, summed over the session's requests. */
  savedTokens: tokens,
  /** The live fate of each item of the followed context the proxy changed; empty without a context. */
  items: z.array(liveFateSchema).max(100_000),
  /** How the requests were known to be the followed session's: the session id they name, or a tool call its transcript holds. */
  matchedBy: z.enum(['session', 'tool-call']).nullable().optional(),
  /** The newest requests through the proxy that name no session and carry none of this one's tool calls: the panel says "no match". */
  unmatched: z
    .object({ requests: tokens, at: z.string().max(40) })
    .nullable()
    .optional(),
});
export type LiveProxyState = z.infer<typeof liveProxySchema>;

/** All reads of one file (or runs of one command) together: the map grouped by resource. */
export const resourceCostSchema = z.object({
  resource: z.string().max(500),
  file: z.boolean(),
  /** Tool calls that touched it. */
  count: z.number().int().nonnegative(),
  /** Tokens its items hold in the context now. */
  tokens,
  usd: z.number().nonnegative(),
});
export type ResourceCost = z.infer<typeof resourceCostSchema>;

const auditEntrySchema = z.object({ kind: z.enum(['rule', 'decision', 'open-loop', 'file']), text: z.string().max(500) });
/** One of the agent's compactions audited (engine/audit): what it carried of what the person had established, and what it dropped. */
export const compactionAuditSchema = z.object({
  id: z.string().max(200),
  sentence: z.string().max(200),
  carried: z.array(auditEntrySchema).max(200),
  dropped: z.array(auditEntrySchema).max(200),
});
export type CompactionAuditView = z.infer<typeof compactionAuditSchema>;

/** What the followed session has cost (src/host/context/costs.ts); null until its calls were read. */
export const costViewSchema = z.object({
  /** Every call of the session and its subagents that has a price, summed. */
  sessionUsd: z.number().nonnegative(),
  calls: z.number().int().nonnegative(),
  /** Models with no price (their calls add tokens only): "no price for <model>". */
  unpriced: z.array(z.string().max(200)).max(50),
  prices: z.object({ source: z.string().max(200), taken: z.string().max(40) }),
  /** Why the person's `cost.prices` setting was refused; null when taken (or empty). */
  problem: z.string().max(1000).nullable(),
  /** Costliest first. */
  byResource: z.array(resourceCostSchema).max(5_000),
  /** Each subagent: its calls, its fill (`tokens`: the prompt of its latest call; 0 in states saved before) and cost. */
  subagents: z
    .array(
      z.object({
        title: z.string().max(200),
        calls: z.number().int().nonnegative(),
        tokens: z.number().int().nonnegative().default(0),
        usd: z.number().nonnegative(),
        unpriced: z.array(z.string().max(200)).max(50),
        started: z.string().max(200).optional(),
        inheritedMost: z.boolean().optional(),
      }),
    )
    .max(500),
  /** Cache health of the session's own calls: "cache 91 % · 4 misses cost $1.62, 3 of them idle gaps"; null in states saved before. */
  /** The agent's own compactions audited, by compaction id (its History entry's id): the person's rules, decisions, open loops and files, carried or dropped. */
  audits: z.array(compactionAuditSchema).max(100).optional(),
  cache: z
    .object({
      sentence: z.string().max(300),
      hitRatio: z.number().min(0).max(1),
      misses: z.number().int().nonnegative(),
      usd: z.number().nonnegative(),
      detail: z.array(z.string().max(300)).max(20),
    })
    .nullable()
    .optional(),
});
export type CostView = z.infer<typeof costViewSchema>;

export const panelStateSchema = z.object({
  session: sessionSummarySchema.nullable(),
  fill: fillSchema.nullable(),
  thresholds: thresholdsSchema,
  /** Tokens per category, estimates scaled to the exact total; empty when unknown. */
  breakdown: breakdownSchema,
  /** Output tokens reserved for the next response (drawn after free space on the gauge). */
  reservedOutputTokens: tokens,
  timeline: z.array(timelinePointSchema).max(5_000),
  history: z.array(historyEntrySchema).max(500),
  empty: emptyReasonSchema.nullable(),
  diagnostics: z.array(z.string()).max(50),
  /** null when no workspace folder is open (there is nothing to connect). */
  hooks: agentHooksSchema.nullable(),
  /** The session's fill is shown; its live context (breakdown, map) is still being read. */
  contextLoading: z.boolean(),
  /** What the live proxy did with the agent's last request; null when nothing went through it. */
  liveProxy: liveProxySchema.nullable(),
  cost: costViewSchema.nullable().default(null),
});
export type PanelState = z.infer<typeof panelStateSchema>;

export const hostMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('state'), state: panelStateSchema }),
  /** Only the parts of the state that changed since the last state or patch (timeline and history are big). */
  z.object({ type: z.literal('statePatch'), patch: panelStateSchema.partial() }),
  z.object({ type: z.literal('plan'), plan: planViewSchema.nullable() }),
  z.object({ type: z.literal('preview'), preview: previewSchema.nullable() }),
  /** A compaction is running (LLM summaries can take a while); `null` when done. */
  z.object({ type: z.literal('progress'), progress: z.object({ message: z.string(), cancellable: z.boolean() }).nullable() }),
  z.object({ type: z.literal('itemDetail'), detail: itemDetailSchema }),
]);
export type HostMessage = z.infer<typeof hostMessageSchema>;

/** Commands the webview may ask the host to run; anything else is rejected on receipt. */
export const webviewCommandSchema = z.enum([
  'openTranscript',
  'selectSession',
  'openSettings',
  'showLog',
  'compact',
  'previewCompaction',
  'connectAgent',
  'disconnectAgent',
]);
export type WebviewCommand = z.infer<typeof webviewCommandSchema>;

export const REFUSED_DETAIL_MAX = 2_000;

export const webviewMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready') }),
  z.object({ type: z.literal('command'), command: webviewCommandSchema }),
  z.object({ type: z.literal('itemDetail'), id: z.number().int().nonnegative() }),
  z.object({
    type: z.literal('previewAction'),
    previewId: z.string(),
    action: z.enum(['apply', 'openDiff', 'cancel', 'resumeInTerminal', 'copyResumeCommand', 'refresh', 'revertSummary']),
  }),
  /** The person's own summary text for this preview: it is computed again with it, then verified. */
  z.object({ type: z.literal('editSummary'), previewId: z.string(), text: z.string().trim().min(1).max(SUMMARY_EDIT_MAX) }),
  z.object({ type: z.literal('cancelProgress') }),
  z.object({ type: z.literal('choice'), action: choiceActionSchema }),
  /** History: one of the agent's own compactions (by its id), its before/after in the diff editor or redone by Context Lens. */
  z.object({ type: z.literal('auditAction'), compactionId: z.string().max(200), action: z.enum(['openDiff', 'redo']) }),
  /** Parts of the host's state the webview refused (a bug of ours), for the host's log: the rest was shown. */
  z.object({ type: z.literal('refused'), detail: z.string().max(REFUSED_DETAIL_MAX) }),
]);
export type WebviewMessage = z.infer<typeof webviewMessageSchema>;

function parseWith<T>(schema: z.ZodType<T>, raw: unknown): Result<T> {
  const result = schema.safeParse(raw);
  if (result.success) return { ok: true, value: result.data };
  return { ok: false, error: z.prettifyError(result.error) };
}

export const parseHostMessage = (raw: unknown): Result<HostMessage> => parseWith(hostMessageSchema, raw);
export const parseWebviewMessage = (raw: unknown): Result<WebviewMessage> => parseWith(webviewMessageSchema, raw);

/**
 * What can still be shown of a state or patch that broke the contract: the parts that hold to it, as
 * a patch over the state the webview holds, and what was refused. One bad figure (a mark beyond the
 * window) must not freeze the whole panel on its last good state. Null for any other message.
 */
export function salvageStateMessage(raw: unknown): { patch: Partial<PanelState>; refused: string[] } | null {
  if (typeof raw !== 'object' || raw === null) return null;
  const { type } = raw as { type?: unknown };
  const body = type === 'statePatch' ? (raw as { patch?: unknown }).patch : type === 'state' ? (raw as { state?: unknown }).state : undefined;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return null;
  const shape = panelStateSchema.shape;
  const patch: Partial<PanelState> = {};
  const refused: string[] = [];
  for (const [key, value] of Object.entries(body)) {
    // Unknown parts are dropped, as the whole-state schema drops them.
    if (!Object.hasOwn(shape, key)) continue;
    const result = shape[key as keyof PanelState].safeParse(value);
    if (result.success) Object.assign(patch, { [key]: result.data });
    else refused.push(`${key}: ${z.prettifyError(result.error)}`);
  }
  return { patch, refused };
}
