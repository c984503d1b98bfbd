// The adapter port: everything the host and the CLI ask of a coding agent's session files, in the
// agent-neutral types of types.ts. Each agent has one folder under src/sessions/ whose adapter.ts
// implements this; agents.ts lists them. Adding an agent is adding a folder and a line there.
import type { Context, CompactionResult, ToolVocabulary } from '../engine';
import type { AgentConnection } from './connection';
import type { LiveProxyPointing } from './liveProxy';
import type { AgentId, CompactionEvent, Diagnostic, FillSnapshot, FollowerEvents, LiveContext, Result, SessionCalls, SessionInfo } from './types';

/** A live context with the engine's context of it (items sized), as every caller reads it. */
export interface LiveRead {
  readonly live: LiveContext;
  readonly context: Context;
}

/**
 * One followed (or once read) session and everything read of it: the fill, the live context, the
 * usage per call and the calls. Each is read once per change of the file, whoever asks; the file
 * itself is opened once and its appended bytes read once (handle/heldFile.ts). Made by
 * `openSession` (handle/open.ts): an adapter's own `open`, else the default built on its port.
 */
export interface SessionHandle {
  readonly adapter: AgentAdapter;
  readonly session: SessionInfo;
  /** The latest fill, once following (`follow()`) read it; null before. */
  readonly fill: FillSnapshot | null;
  /** The follower's events; listen before `follow()`. */
  on<K extends keyof FollowerEvents>(event: K, listener: (...args: FollowerEvents[K]) => void): unknown;
  /** Reads the fill (tail first), emits the initial `contextChanged`, then follows appends. One read needs none of it. */
  follow(): Promise<void>;
  /** The live context and the engine's context of it: read once per change, the usage points with it. */
  liveContext(): Promise<Result<LiveRead>>;
  /** Fill at the call a ref of the live context belongs to (after `liveContext()`), for the timeline. */
  usagePoint(ref: string): UsagePoint | undefined;
  /** Every call the session paid for and its subagents' (what it cost): read once per change. */
  calls(): Promise<Result<SessionCalls>>;
  /** Stops following and closes the file. */
  dispose(): Promise<void>;
}

/** Where to look for sessions; an agent without folders here looks in its own defaults (environment, home folder). */
export interface SessionLocations {
  /** Per agent id: the folders (or store) the person named, each read by that agent's adapter. */
  readonly homes?: Readonly<Partial<Record<AgentId, readonly string[]>>>;
  /** Environment the defaults are read from (default: this process's). */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/** The folders of one agent in `where` (empty: the agent's defaults). */
export function homesOf(where: SessionLocations, agent: AgentId): readonly string[] {
  return where.homes?.[agent] ?? [];
}

/** Where an agent keeps its sessions, as a person can point Context Lens elsewhere. */
export interface AgentHome {
  /** The CLI option naming one such place (repeatable), without dashes: `config-dir`, `codex-home`. */
  readonly option: string;
  /** The environment variable the agent itself reads for it, when there is one. */
  readonly env?: string;
  /**
   * Other environment variables its reading depends on (its config, window overrides): with `env`,
   * what the resident reader is sent to read as a terminal would (registry.ts collects them).
   */
  readonly otherEnv?: readonly string[];
  /** The defaults in words, for usage texts and "nothing found" messages: "CODEX_HOME, else ~/.codex". */
  readonly describe: string;
}

export interface ReadOptions {
  /** Window size to use instead of the model's (the contextLens.window setting); 0 = the model's. */
  readonly windowOverride?: number;
  /** Environment the agent's own overrides are read from (default: this process's). */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/** A live follower of one session file, emitting the same events for every agent. */
export interface SessionFollowerPort {
  on<K extends keyof FollowerEvents>(event: K, listener: (...args: FollowerEvents[K]) => void): unknown;
  start(): Promise<void>;
  dispose(): void;
}

/** Waiting for a workspace's first session of one agent (started after VS Code was). */
export interface SessionWaiter {
  /** The folders watched, for the log. */
  readonly where: readonly string[];
  dispose(): void;
}

/** Fill at one API call, for the timeline. */
export interface UsagePoint {
  at: string | null;
  usedTokens: number;
  /** Calls that span several records share an id, so the timeline draws one bar for them. */
  messageId: string | null;
}

/** Per-call usage of one session file, read incrementally; keyed by the live context's entry refs. */
export interface UsageReader {
  readonly path: string;
  /** Reads what was appended; `from`: the live context's `startOffset` (nothing before it is asked for). */
  update(from?: number): Promise<void>;
  get(ref: string): UsagePoint | undefined;
}

/** What Apply hands an adapter: the compaction of a live context, to write as a new session. */
export interface ForkInput {
  live: LiveContext;
  /** The context `result` was computed from (item ids index into it). */
  context: Context;
  result: CompactionResult;
  focus?: string | null;
  /** The fork's own title ("… (compacted)"); the source's title is `live.session.title`. */
  title?: string;
}

export interface WrittenFork {
  sessionId: string;
  path: string;
  /** What a person types to continue from the fork (in the session's working directory). */
  resumeCommand: string;
  /** What the writer had to add or decide that the compaction result does not say (e.g. a call it closed). */
  notes?: string[];
}

/** One of the agent's own compactions as the session stood on either side of it (sessions/compactionAudit.ts). */
export interface CompactionSides {
  /** Just before it: the messages the model read then; `compactions` the earlier ones. */
  before: LiveContext;
  /** Just after it, before the model spoke again: its summary and everything it kept. */
  after: LiveContext;
}

export interface AgentAdapter {
  /** Its folder's name under src/sessions/. */
  readonly id: AgentId;
  /** As people call it in messages: "Claude Code", "Codex CLI". */
  readonly name: string;
  /** How its own auto-compaction point is set, to end "… is set by": "model_auto_compact_token_limit in config.toml". */
  readonly pointSetBy: string;
  readonly home: AgentHome;
  /** What its tools do, for the engine (which knows no agent's tool names). */
  readonly tools: ToolVocabulary;
  /** Tokens it keeps free below the window for the next response, drawn as reserved on the gauge (0: none). */
  reservedOutputTokens(fill: Pick<FillSnapshot, 'windowTokens' | 'agentAutoCompactTokens'>): number;
  /** The command a resume runs, checked on PATH before a terminal is opened. */
  readonly command: string;
  /** The npm package that installs `command`, for the message when it is missing. */
  readonly installPackage: string;
  /** Where its makers explain installing it. */
  readonly installGuide: string;
  /** Whether a file is one of this agent's session files (by its place or its first record). */
  owns(path: string): Promise<boolean>;
  /** Sessions, newest activity first; of one workspace folder when `workspacePath` is given. */
  listSessions(where: SessionLocations, workspacePath?: string): Promise<Result<SessionInfo[]>>;
  /**
   * The workspace's most recently written main session, or null. Optional: the default
   * (handle/defaults.ts) takes the newest main session `listSessions` gives for the workspace.
   */
  findWorkspaceSession?(workspacePath: string, where: SessionLocations): Promise<Result<SessionInfo | null>>;
  readSessionInfo(path: string): Promise<Result<SessionInfo>>;
  /** What the agent's model sees now, with the exact fill and every compaction of the file. */
  readLiveContext(session: SessionInfo, options?: ReadOptions): Promise<Result<LiveContext>>;
  /** Not started yet: listen first, then `start()`. */
  follow(session: SessionInfo, options?: ReadOptions): Promise<SessionFollowerPort>;
  /**
   * Watches where the agent would write the workspace's sessions (folders that may not exist yet)
   * and calls `found` with each one that appears there; one already there counts as appearing.
   */
  waitForSession(
    workspacePath: string,
    where: SessionLocations,
    found: (session: SessionInfo) => void,
    report: (diagnostic: Diagnostic) => void,
  ): Promise<SessionWaiter>;
  /**
   * The sessions stored where `session` is (its project folder, CODEX_HOME, data folder, database):
   * where a fork of it is written, so where its forks are looked for (`listForks`, handle/defaults.ts).
   */
  sessionsBeside(session: SessionInfo): Promise<Result<SessionInfo[]>>;
  usage(path: string): UsageReader;
  /** Every call the session paid for (the whole file, each response once) and its subagents' calls: what it cost. */
  readSessionCalls(session: SessionInfo): Promise<Result<SessionCalls>>;
  /** What a person types (in the session's working directory) to continue `session`. */
  resumeCommand(session: SessionInfo): string;
  /**
   * The session on either side of one of its own compactions (`event`, from `live.compactions`), for
   * the audit of what it dropped and for Redo. Optional: without it, a compaction with a byte
   * `offset` is read from the file's bytes before it (compactionAudit.ts).
   */
  readCompaction?(live: LiveContext, event: CompactionEvent): Promise<Result<CompactionSides>>;
  /** Writes the compaction as a new session the agent resumes; the source is only read. */
  writeFork(input: ForkInput): Promise<Result<WrittenFork>>;
  /**
   * One handle on `session` (see SessionHandle). Optional: without it, `openSession` builds the
   * default on the methods above; an adapter that can keep its reads incremental overrides it.
   */
  open?(session: SessionInfo, options?: ReadOptions): SessionHandle;
  /** Set when Context Lens can connect to the agent in a workspace folder (hooks, status line, MCP server). */
  readonly connection?: AgentConnection;
  /** Set when its CLI can be pointed at the live proxy (`ctxlens run`, Start Live Proxy). */
  readonly liveProxy?: LiveProxyPointing;
}
