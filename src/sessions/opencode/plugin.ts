// The plugin file Connect writes into a project's `.opencode/plugins/` for OpenCode (1.18 loads
// every `{plugin,plugins}/*.{js,ts}` there). It runs `ctxlens hook … --agent opencode` (no shell,
// the session id on stdin) and passes the pinned block on two ways: to the summariser through
// `experimental.session.compacting` (appended to its prompt), and back into the session after a
// compaction through `experimental.chat.system.transform` (the summariser may still drop it). The
// block is asked for once per session and process, and again after each `session.compacted`.
import { CLI_COMMAND, type CommandPaths } from '../connection';

export const PLUGIN_FILE = ['.opencode', 'plugins', 'context-lens.js'] as const;
/** The first line of every plugin file Connect writes: a file without it is the person's. */
export const PLUGIN_MARKER = '// Context Lens Connect: `ctxlens disconnect --agent opencode` removes this file.';

/** The program and arguments that run our CLI, as `paths` say. */
export function commandArgv({ node, electronRunAsNode = false, binDir, viaLauncher = false }: CommandPaths): { argv: string[]; env: Record<string, string> } {
  if (viaLauncher) return { argv: [CLI_COMMAND], env: {} };
  return { argv: [node, `${binDir.replace(/[\\/]+$/, '')}/cli.js`], env: electronRunAsNode ? { ELECTRON_RUN_AS_NODE: '1' } : {} };
}

/** The whole file for `paths`: identical text for identical paths, so Connect can tell whether it is current. */
export function pluginText(paths: CommandPaths): string {
  const { argv, env } = commandArgv(paths);
  return `${PLUGIN_MARKER}
// It hands your rules, decisions, open loops and recent prompts (the pinned block) to OpenCode's
// own compaction, and puts them back into the system prompt of the session after it.
import { execFile } from "node:child_process";

const ARGV = ${JSON.stringify(argv)};
const ENV = ${JSON.stringify(env)};
/** A hook that takes longer than this gives nothing: OpenCode is never held up for long. */
const TIMEOUT_MS = 20000;

function pinned(kind, sessionID, directory, window) {
  return new Promise((resolve) => {
    const child = execFile(ARGV[0], [...ARGV.slice(1), "hook", kind, "--agent", "opencode"], { timeout: TIMEOUT_MS, env: { ...process.env, ...ENV }, maxBuffer: 4 * 1024 * 1024 }, (error, stdout) => resolve(error ? "" : String(stdout).trim()));
    child.on("error", () => resolve(""));
    child.stdin.end(JSON.stringify({ session_id: sessionID, cwd: directory, source: kind === "session-start" ? "compact" : null, window }));
  });
}

export const ContextLens = async ({ directory }) => {
  /** The block to put back, by session: asked for once, again after each compaction. */
  const blocks = new Map();
  /** The model's window by session (the system transform is told the model), for the prompt budget. */
  const windows = new Map();
  return {
    "experimental.session.compacting": async (input, output) => {
      const text = await pinned("pre-compact", input.sessionID, directory, windows.get(input.sessionID));
      if (text !== "") output.context.push(text);
      blocks.delete(input.sessionID);
    },
    event: async ({ event }) => {
      if (event?.type === "session.compacted") blocks.delete(event.properties?.sessionID);
    },
    "experimental.chat.system.transform": async (input, output) => {
      if (typeof input?.sessionID !== "string") return;
      const window = input.model?.limit?.context;
      if (typeof window === "number") windows.set(input.sessionID, window);
      if (!blocks.has(input.sessionID)) blocks.set(input.sessionID, pinned("session-start", input.sessionID, directory, windows.get(input.sessionID)));
      const text = await blocks.get(input.sessionID);
      if (text !== "") output.system.push(text);
    },
  };
};
`;
}
