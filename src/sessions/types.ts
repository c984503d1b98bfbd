// Agent-neutral session types. The host, the CLI and the compaction engine build on these, so they
// stay small and say nothing about any one agent's file format; each adapter (one folder per agent)
// translates its agent's sessions into them.
import type { Result as BaseResult } from '../base/result';

/** Outcome of an adapter call (base/result's one Result type, with a coded error): callers branch on `ok` instead of catching. */
export type Result<T, E = SessionError> = BaseResult<T, E>;

/** Why an adapter call failed. `code` is stable for programs; `message` is for people. */
export interface SessionError {
  code: 'not-found' | 'permission-denied' | 'io' | 'invalid-input' | 'split-tool-pair' | 'empty' | 'exists';
  message: string;
  path?: string;
}

/**
 * Something worth telling the user about a transcript that did not stop us reading it:
 * a torn line, an unknown record, a broken parent link. `line` is 1-based when known; `offset`
 * is the byte offset of the line start (always known, also when reading backwards).
 */
export interface Diagnostic {
  severity: 'error' | 'warning' | 'info';
  /** Stable identifier, e.g. `invalid-json`, `cycle`, `missing-parent`, `orphan-tool-use`. */
  code: string;
  message: string;
  line?: number;
  offset?: number;
  path?: string;
}

/**
 * The agents Context Lens reads, by id (the name of the adapter's folder under src/sessions/). Each
 * adapter adds its own id here from its folder (`declare module '../types' { interface KnownAgents
 * { codex: true } }`), so adding an agent stays its folder and the registry line, and `AgentId` is a
 * closed union: the registry (agents.ts) must name an adapter for every id, and only those.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by each adapter's declaration
export interface KnownAgents {}

export type AgentId = keyof KnownAgents & string;

/** One transcript file as it shows up in a session picker. */
export interface SessionInfo {
  id: string;
  agent: AgentId;
  path: string;
  /**
   * Where the session lives, in words, when `path` is not a file a person could open (an OpenCode
   * session is a row of a database: `path` is `<database>#<id>`, our own key). Shown instead of it.
   */
  location?: string;
  /** Folder holding the transcript (the agent's per-workspace folder). */
  projectDir: string;
  /** Working directory the agent ran in, from the records; null when no record names it. */
  cwd: string | null;
  title: string;
  /** Model of the last assistant response; null before the first response. */
  model: string | null;
  /** File modification time: the agent appends on every turn, so this is its last activity. */
  lastActivityMs: number;
  /**
   * Timestamp of the newest record that has one (read from the file's tail), what a person means by
   * "last activity"; null when none was found. The mtime moves with copies and restores as well.
   */
  lastRecordAtMs?: number | null;
  sizeBytes: number;
  /** A subagent transcript; `parentSessionId` names the session that spawned it. */
  isSidechain: boolean;
  parentSessionId?: string;
  /** Written by Context Lens's Apply: the session it compacted (its id, and title when known). */
  forkOf?: { sessionId: string | null; title: string | null };
}

/** A compaction the agent itself performed (e.g. Claude Code's `/compact` or auto-compact). */
export interface CompactionEvent {
  uuid: string;
  /** Who compacted: the agent itself, or Context Lens (a fork written by Apply). */
  by: 'agent' | 'context-lens';
  timestamp: string | null;
  trigger: 'manual' | 'auto' | string;
  preTokens: number | null;
  postTokens: number | null;
  /** The focus instructions given with a manual compaction. */
  focus: string | null;
  /** Text of the summary that replaced the history, when it was found. */
  summary: string | null;
  line?: number;
  offset?: number;
}

/** Token counts of one API response as the provider reported them. */
export interface UsageBreakdown {
  inputTokens: number;
  cacheCreationInputTokens: number;
  cacheReadInputTokens: number;
  outputTokens: number;
  /** Of `cacheCreationInputTokens`, what was written with a 1-hour lifetime (priced higher); absent when none. */
  cacheWrite1hTokens?: number;
}

/** Where the exactly counted part of a transcript ends; everything after it needs an estimate. */
export interface AccountedPoint {
  /** uuid of the last record whose tokens `usedTokens` includes (null: nothing counted yet). */
  uuid: string | null;
  /** Byte offset just past that record's line; content from here on is not in `usedTokens`. */
  endOffset: number;
}

/** How full the context window is, for a gauge. */
export interface FillSnapshot {
  usedTokens: number;
  /** `usage`: the provider's own counts. `estimate`: no usage covers the live context yet. */
  source: 'usage' | 'estimate';
  windowTokens: number;
  windowSource: 'model' | 'override' | 'default';
  /** Where the agent compacts on its own (Claude Code: 167k of 200k by default). */
  agentAutoCompactTokens: number;
  model: string | null;
  /** Timestamp of the record the counts come from. */
  timestamp: string | null;
  /** Output tokens of the last response not yet in `usedTokens`: they join the next request. */
  outputTokensPending: number;
  /**
   * Estimate (four characters a token) of what was written after `accountedThrough`: a new prompt,
   * tool results. Not in `usedTokens`, which stays the provider's exact count; joins the next request.
   */
  pendingTokens: number;
  usage: UsageBreakdown | null;
  accountedThrough: AccountedPoint;
  /** The agent compacted after the last usage record; `usedTokens` is then its post-compaction count (or 0). */
  compactedSinceUsage: boolean;
}

/** A content block in Anthropic Messages format (text, image, tool_use, tool_result, thinking…). */
export interface ContentBlock {
  type: string;
  [key: string]: unknown;
}

export interface ApiMessage {
  role: 'user' | 'assistant';
  content: ContentBlock[];
}

export type EntryKind = 'user' | 'assistant' | 'tool-result' | 'meta' | 'attachment' | 'compact-summary';

/** Where one message of the live context came from in the transcript. */
export interface ContextEntry {
  /** Index into `LiveContext.messages`. */
  messageIndex: number;
  /** What the message mainly is (a prompt wins over reminders merged into the same turn). */
  kind: EntryKind;
  /** Records merged into this message, in chain order, with the kind of each. */
  uuids: string[];
  recordKinds: EntryKind[];
  /** 1-based line numbers of those records (when known). */
  lines: number[];
  timestamp: string | null;
  toolUseIds: string[];
  toolResultIds: string[];
}

/**
 * One completed model call on the live chain as the provider reported it: its response is
 * messages `from`…`to` (usually one message), its prompt every message before `from`.
 */
export interface LiveCall {
  from: number;
  to: number;
  usage: UsageBreakdown;
  /**
   * Of `usage.outputTokens`, what the next request carries, when an agent does not send back all it
   * was billed for (Gemini CLI strips a reply's thoughts from its history). Absent: all of it.
   */
  carriedOutputTokens?: number;
  model: string | null;
  at: string | null;
}

/**
 * One model call anywhere in a session file (before compactions too), counted once: what it cost.
 * `count`: this many calls of one model on one day summed (their usage added up), all below any
 * long-context tier, so priced alike; 1 when absent.
 */
export type SessionCall = Omit<LiveCall, 'from' | 'to'> & { count?: number };

/** Every call a session paid for: its own file's, and each subagent transcript's. */
export interface SessionCalls {
  calls: SessionCall[];
  /**
   * The file's main-chain calls one by one, in the order they were made (for cache health); absent
   * when `calls` already are that (no call summed).
   */
  sequence?: SessionCall[];
  subagents: { session: SessionInfo; calls: SessionCall[]; sequence?: SessionCall[] }[];
}

/**
 * When the conversation last happened: its newest record's time, else its file's. One rule for the
 * picker, `ctxlens sessions` and which session is newest (a copied or restored file has a new mtime).
 */
export function lastActiveMs(session: Pick<SessionInfo, 'lastRecordAtMs' | 'lastActivityMs'>): number {
  return session.lastRecordAtMs ?? session.lastActivityMs;
}

/** What the agent's model sees right now, rebuilt from the transcript. */
export interface LiveContext {
  session: SessionInfo;
  /** `request`: the exact last request body was recorded. `chain`: rebuilt from the record chain. */
  source: 'request' | 'chain';
  model: string | null;
  system?: ContentBlock[];
  tools?: Record<string, unknown>[];
  /** Request parameters (model, max_tokens, betas, thinking…) when `source` is `request`. */
  params?: Record<string, unknown>;
  /** Consecutive user-side records form one message, as the API receives them. */
  messages: ApiMessage[];
  entries: ContextEntry[];
  fill: FillSnapshot;
  /** Every compaction the agent performed in this file, oldest first. */
  compactions: CompactionEvent[];
  diagnostics: Diagnostic[];
  /**
   * Every call since the live context began that reported usage, oldest first: items are sized from
   * them (engine/tokens/attribute.ts). Calls reporting no usage (some third-party models) are absent.
   */
  calls: LiveCall[];
  /** Where in the file the live context's oldest record starts, when the adapter knows (per-call usage reads from here). */
  startOffset?: number;
  /**
   * Where the read this context was built from stopped (a byte offset of an append-only file): a fork
   * is written from the bytes before it, the plan's own snapshot, not from what the agent appended
   * since (a tool result arriving between the plan and the fork would split a pair the plan kept whole).
   */
  readEnd?: number;
  /**
   * A fork Context Lens wrote, before the agent's first call in it: the sizes its compaction was
   * planned with (the fork's mark), so it reads back as its preview until a call measures it.
   */
  planned?: PlannedSizes;
  /**
   * When the system prompt and tools are not recorded and the chain opens with the agent's own
   * compaction: what they weigh alone (measured before it). The first call after it measured more.
   */
  headResent?: number;
}

/** What a compaction measured of what it kept, written into the fork it applies. */
export interface PlannedSizes {
  /** The system prompt and tool definitions (recorded or not) as the calls measured them. */
  headTokens: number;
  /** Provider tokens per token of our estimate, on what the calls measured (Context.tokenScale). */
  tokenScale: number;
}

/** Planned sizes from a fork's mark (written by any agent's fork writer), or undefined when absent or malformed. */
export function plannedSizesOf(value: unknown): PlannedSizes | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { headTokens, tokenScale } = value as Record<string, unknown>;
  if (typeof headTokens !== 'number' || !Number.isFinite(headTokens) || headTokens < 0) return undefined;
  if (typeof tokenScale !== 'number' || !Number.isFinite(tokenScale) || tokenScale <= 0 || tokenScale > 100) return undefined;
  return { headTokens: Math.round(headTokens), tokenScale };
}

/** A newer session appeared where a follower watches (the agent started or resumed one). */
export interface SessionSwitch {
  session: SessionInfo;
  /** The transcript that was current before, if any. */
  previousPath: string | null;
}

/** A follower's reading of what changed in the followed file. */
export interface ContextChange {
  fill: FillSnapshot;
  previous: FillSnapshot | null;
  /** `initial`: first read. `append`: new lines. `reset`: the file was truncated or replaced. */
  reason: 'initial' | 'append' | 'reset';
  /** Refs (record uuids, or an agent's own item refs) of what arrived with this change (empty for initial and reset). */
  newUuids: string[];
}

/** What every agent's follower emits; the host listens to either the same way. */
export interface FollowerEvents {
  contextChanged: [ContextChange];
  compacted: [CompactionEvent];
  sessionSwitched: [SessionSwitch];
  /** Problems while following (deleted, unreadable, bad lines). Named so an unheard one never throws. */
  diagnostic: [Diagnostic];
}
