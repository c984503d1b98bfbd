// Connecting an agent to Context Lens in a workspace folder, for the agents that can be: hooks,
// a status line and the MCP server (compact_context, recall) written into the agent's own settings
// files there. Agent-neutral, so the host's Connect command and the CLI's `connect` work with any
// adapter that has a `connection` (port.ts): plan the change, show it as a diff, save it.
import type { HookName } from '../contracts/hooks';
import type { PinPurpose, PinSource } from '../engine';
import type { Result } from './types';

/** Where the commands Connect writes find a Node.js and our bundles. */
export interface CommandPaths {
  /** The Node.js executable, or an Electron one when `electronRunAsNode` is set. */
  readonly node: string;
  /** VS Code's own runtime stands in for Node where none is installed. */
  readonly electronRunAsNode?: boolean;
  /** Folder holding `cli.js` and `statusline.js`. */
  readonly binDir: string;
  readonly platform: NodeJS.Platform;
  /** Our `ctxlens` launcher is on PATH: the commands name it instead of a Node.js and a script path. */
  readonly viaLauncher?: boolean;
}

/** The command the extension's "Install 'ctxlens' command in PATH" puts there (`context-lens` is another project's on npm). */
export const CLI_COMMAND = 'ctxlens';

export type ConnectVerb = 'connect' | 'disconnect';

export type ConnectionState = 'connected' | 'partial' | 'disconnected';

/** One file Connect or Disconnect would change. */
export interface FileChange {
  /** The path as the person knows it. */
  readonly path: string;
  /** The file actually written: `path` with every symbolic link followed. */
  readonly target: string;
  /** Its text now, or null when there is no such file yet. */
  readonly before: string | null;
  readonly after: string;
}

/** What Connect or Disconnect would change in one folder, before anything is written. */
export interface ConnectionPlan {
  readonly verb: ConnectVerb;
  /** The agent's settings file in the folder, named when nothing changes. */
  readonly settingsPath: string;
  /** Set when that file cannot be edited safely (nothing is then written): why, and the file to open. */
  readonly refused: { readonly message: string; readonly path: string } | null;
  /** Each file whose edit worked and changes something; one file's trouble never stops another's change. */
  readonly changes: readonly FileChange[];
  /** Worth telling before the person agrees (a status line that stays, a file left alone). */
  readonly notes: readonly string[];
}

export interface Saved {
  /** Where the content before this change was copied, when there was any. */
  readonly backup: string | null;
  /** True when Disconnect removed a file Connect had created. */
  readonly removed: boolean;
}

export interface SavedChange {
  readonly change: FileChange;
  readonly saved: Result<Saved>;
}

/** One record of a session file the hooks take rules, requests and open loops from (the engine's pinned block reads them). */
export type { PinSource } from '../engine';

/** The fields of an agent's hook input the hook command reads; everything is optional and checked. */
export interface HookInput {
  readonly session_id?: unknown;
  readonly transcript_path?: unknown;
  readonly cwd?: unknown;
  readonly trigger?: unknown;
  readonly custom_instructions?: unknown;
  readonly source?: unknown;
  readonly prompt?: unknown;
  /** The model's window in tokens, when the caller knows it (OpenCode's plugin): the prompt budget is a share of it. */
  readonly window?: unknown;
}

/** What one hook run should do, decided by the agent from its input before the session is read. */
export type HookTurn =
  /** Print nothing (a fresh session, a turn with nothing lost). `why` goes to the event log. */
  { readonly print: false; readonly why: string | null } | { readonly print: true; readonly purpose: PinPurpose; readonly why: string | null };

/** What `ctxlens hook <kind>` needs of an agent that runs our hook commands. */
export interface AgentHooks {
  /** The hook kinds Connect installs. */
  readonly kinds: readonly HookName[];
  /** The window the prompt budget is a share of when the hook input does not name one. */
  readonly defaultWindowTokens: number;
  /** Each record of the session file the pins may come from, in file order (memory stays that of one line). */
  forEachPinSource(path: string, visit: (source: PinSource) => void): Promise<void>;
  /** The session the input names when it gives no `transcript_path` (a plugin hands over an id). */
  sessionPath?(input: HookInput): Promise<string | null>;
  /** Whether this run adds the block, and as what (absent: pre-compact feeds the summariser, session-start re-injects after a compaction). */
  turn?(name: HookName, input: HookInput): Promise<HookTurn>;
  /** The block in the agent's wire format for stdout (absent: the text as is). */
  output?(name: HookName, text: string): string;
}

/** Registering our MCP server alone (`ctxlens mcp --print-config | --register`). */
export interface McpRegistration {
  /** The name the agent knows the server by (it prefixes the tools with it). */
  readonly serverName: string;
  /** The whole configuration to add by hand. */
  config(paths: CommandPaths): string;
  /** The registration in `folder` as a plan (verb `connect`, the server's file only). */
  plan(folder: string, paths: CommandPaths): Promise<Result<ConnectionPlan>>;
}

export interface AgentConnection {
  /** Set on the one agent Connect, `ctxlens connect`, `mcp` and `hook` mean when none is named (its commands predate `--agent`). */
  readonly byDefault?: boolean;
  /** The files in a workspace folder (relative, `/`-separated) whose change may change the state. */
  readonly watchFiles: readonly string[];
  /** What Connect adds and Disconnect removes, in a sentence each, for the confirmation. */
  readonly describe: { readonly connect: string; readonly disconnect: string };
  /**
   * What the agent itself still needs before it runs what Connect wrote, which no file of the
   * workspace tells (Codex runs a project's hook only once the person trusts the folder and the
   * hook): the panel says it beside "connected" rather than claim the hooks run.
   */
  readonly caveat?: string;
  /** What Connect installs, as the panel names it ("OpenCode plugin: connected"); absent: hooks. */
  readonly installs?: 'hooks' | 'plugin';
  /** Set when Connect installs our hook commands. */
  readonly hooks?: AgentHooks;
  /** Set when Connect registers our MCP server. */
  readonly mcp?: McpRegistration;
  /** Reads the folder's files and computes the edits; fails only when the settings file cannot be read. */
  plan(verb: ConnectVerb, folder: string, paths: CommandPaths): Promise<Result<ConnectionPlan>>;
  /** Writes every change of the plan (backups first); each file's result on its own. */
  save(plan: ConnectionPlan, env: Readonly<Record<string, string | undefined>>): Promise<SavedChange[]>;
  /** How much of the connection the folder's settings hold, matched against the commands `paths` give. */
  state(folder: string, paths: CommandPaths): Promise<Result<ConnectionState>>;
}
