// `ctxlens hook <event> [--agent ID]`: hook commands that keep the person's words alive through an
// agent's own compactions: their prompts word for word (within the prompt budget, newest first) and
// the rules, requests and open loops in every prompt, as one pinned block (engine/pinnedBlock.ts).
// Claude Code: `pre-compact` appends it to the compaction instructions, `session-start` (source
// "compact") re-injects it. Codex: `session-start` (source "compact") re-injects it. Gemini CLI:
// `before-agent` adds it on the first turn after a compression or when the person asks. The
// agent's connection reads its session and writes the agent's wire format. A hook must never get in
// the agent's way, so every failure is recorded in the events file and the hook prints nothing.
import { closeSync, constants, fchmodSync, fstatSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parse as parseJsonc, printParseErrorCode, type ParseError } from 'jsonc-parser';
import { formatHookEvent, HOOK_SETTINGS, hookEventsPath, settingId, type HookEventLine, type HookName } from '../contracts/hookEvents';
import { buildPinnedBlock, DEFAULT_OPTIONS, redactSecrets, type PinPurpose, type PinSettings, type PinSource } from '../engine';
import type { AgentHooks, HookInput, HookTurn } from '../sessions/connection';
import { connectableAgent } from '../sessions/connectable';
import { ok } from '../sessions/result';
import { READ_CAPS, readRegularText, withoutBom } from '../sessions/common/regularFile';
import { parseInputJson, readStdin } from './hookInput';
import { EXIT_OK, parse, usageError, type Io } from './io';

export const HOOK_USAGE = `ctxlens hook <pre-compact|session-start|before-agent> [--agent ID]
  Hook commands an agent runs (hook JSON on stdin); --agent names it (default: claude-code).
  pre-compact prints the person's prompts word for word (newest first within the prompt budget),
  the rules, requests and open loops in all of them and the workspace's standing focus, to append
  to the compaction instructions; session-start prints the same again after a compaction (source
  "compact"); before-agent (Gemini CLI) prints it on the first turn after a compression. Always
  exit 0; events go to $XDG_STATE_HOME/context-lens/hook-events.jsonl (default ~/.local/state).`;

export const PINNED_SETTING = settingId(HOOK_SETTINGS.pinnedConstraints);
export const EXTRACT_SETTING = settingId(HOOK_SETTINGS.extractPinned);
export const FOCUS_SETTING = settingId(HOOK_SETTINGS.focus);
export const BUDGET_SETTING = settingId(HOOK_SETTINGS.promptBudgetPercent);

/** The hooks of the agent `id` names (none named: the default one, whose commands predate `--agent`); a usage error when it runs none. */
function agentHooks(id: string | undefined): AgentHooks {
  const agent = connectableAgent(id);
  if (!agent.ok) throw usageError(agent.error.message);
  if (agent.value.connection.hooks === undefined) throw usageError(`${agent.value.adapter.name} runs no Context Lens hooks`);
  return agent.value.connection.hooks;
}

export async function hookCommand(args: readonly string[], io: Io): Promise<number> {
  const { values, positionals } = parse(args, { agent: { type: 'string' } }, 1);
  const [name] = positionals;
  const agent = values.agent;
  const { kinds } = agentHooks(agent);
  if (name === undefined || !kinds.includes(name as HookName)) throw usageError(`unknown hook '${name ?? ''}' (expected ${kinds.join(' or ')})`);
  // Stdin over its cap is recorded as the run's error (a hook never fails the agent).
  const stdin = await readStdin().catch((error: unknown) => (error instanceof Error ? error : new Error(String(error))));
  return runHook(name as HookName, stdin, io, agent);
}

/** Claude Code's and Codex's rule: pre-compact feeds the summariser; session-start re-injects after a compaction only. */
function defaultTurn(name: HookName, input: HookInput): HookTurn {
  if (name === 'pre-compact') return { print: true, purpose: 'summariser', why: null };
  // Only a compaction loses the constraints; a fresh, resumed or cleared session has its own.
  return input.source === 'compact' ? { print: true, purpose: 'reinject', why: null } : { print: false, why: null };
}

/** One hook run on the given stdin text: prints the pinned block (or nothing), records the event. */
export async function runHook(name: HookName, stdin: string | Error, io: Io, agent?: string): Promise<number> {
  const event: HookEventLine = {
    time: new Date().toISOString(),
    hook: name,
    agent: agentId(agent),
    sessionId: '',
    trigger: null,
    source: null,
    focus: null,
    workspaceFocus: null,
    constraints: 0,
    openLoops: 0,
    printed: false,
    error: null,
  };
  try {
    if (stdin instanceof Error) throw stdin;
    const hooks = agentHooks(agent);
    const input = (parseInputJson(stdin) ?? {}) as HookInput;
    Object.assign(event, {
      sessionId: str(input.session_id) ?? '',
      trigger: str(input.trigger),
      source: str(input.source),
      focus: str(input.custom_instructions),
    });
    const turn = hooks.turn ? await hooks.turn(name, input) : defaultTurn(name, input);
    if (turn.print) {
      const workspace = await workspaceSettings(str(input.cwd));
      const { text: block, constraints, openLoops, transcriptError } = await pinnedBlockOf(hooks, input, workspace, turn.purpose);
      event.error = transcriptError;
      const focus = turn.purpose === 'summariser' ? standingFocus(workspace, str(input.custom_instructions)) : null;
      const text = block + renderFocus(focus);
      Object.assign(event, { constraints, openLoops, workspaceFocus: focus, printed: text !== '', trigger: event.trigger ?? turn.why });
      // What the agent writes into its summary and transcript: a key in a pinned prompt stays out.
      if (text !== '') io.out.write(hooks.output ? hooks.output(name, redactSecrets(text)) : redactSecrets(text));
    } else {
      event.trigger ??= turn.why;
    }
  } catch (error) {
    event.error = error instanceof Error ? error.message : String(error);
  }
  recordEvent(event, io);
  return EXIT_OK;
}

/** The id of the agent a run is for, for the event log. */
function agentId(id: string | undefined): string | null {
  const agent = connectableAgent(id);
  return agent.ok ? agent.value.adapter.id : (id ?? null);
}

const str = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

/** What the workspace's Context Lens settings say; the defaults when a setting is not there. */
interface WorkspaceSettings extends PinSettings {
  focus: string | null;
}

/** The block from the session the input names; an unreadable session loses its prompts, not the constraints pinned in settings. */
async function pinnedBlockOf(
  hooks: AgentHooks,
  input: HookInput,
  workspace: WorkspaceSettings,
  purpose: PinPurpose,
): Promise<{ text: string; constraints: number; openLoops: number; transcriptError: string | null }> {
  const transcript = str(input.transcript_path) ?? (hooks.sessionPath ? await hooks.sessionPath(input) : null);
  const sources: PinSource[] = [];
  let transcriptError: string | null = null;
  if (transcript !== null && workspace.extractPinned) {
    try {
      await hooks.forEachPinSource(transcript, (source) => sources.push(source));
    } catch (error) {
      sources.length = 0;
      transcriptError = `transcript not read: ${error instanceof Error ? error.message : String(error)}`;
    }
  }
  // The window the caller names (OpenCode's plugin knows the model's), else the agent's default.
  const window = typeof input.window === 'number' && Number.isFinite(input.window) && input.window > 0 ? input.window : hooks.defaultWindowTokens;
  return { ...buildPinnedBlock(sources, workspace, window, purpose), transcriptError };
}

/**
 * Read from the workspace's `.vscode/settings.json` (JSON with comments), as VS Code would. The
 * agent waits on this hook: only a regular file under the cap is read.
 */
async function workspaceSettings(cwd: string | null): Promise<WorkspaceSettings> {
  const path = cwd === null ? null : join(cwd, '.vscode', 'settings.json');
  const promptBudgetPercent = DEFAULT_OPTIONS.preserve.promptBudgetPercent;
  const read = path === null ? ok(null) : await readRegularText(path, READ_CAPS.settings);
  if (!read.ok) throw new Error(read.error.message);
  if (read.value === null) return { pinned: [], extractPinned: true, focus: null, promptBudgetPercent };
  // As VS Code reads it: comments and trailing commas allowed; anything else wrong is an error to log.
  const errors: ParseError[] = [];
  const settings = (parseJsonc(withoutBom(read.value), errors, { allowTrailingComma: true }) ?? {}) as Record<string, unknown>;
  const [first] = errors;
  if (first !== undefined) throw new Error(`${path}: ${printParseErrorCode(first.error)} at offset ${first.offset}`);
  const pinned = settings[PINNED_SETTING];
  const focus = settings[FOCUS_SETTING];
  const budget = settings[BUDGET_SETTING];
  return {
    pinned: Array.isArray(pinned) ? pinned.filter((entry): entry is string => typeof entry === 'string') : [],
    extractPinned: settings[EXTRACT_SETTING] !== false,
    focus: typeof focus === 'string' && focus.trim() !== '' ? focus.trim() : null,
    promptBudgetPercent: typeof budget === 'number' && budget >= 0 ? budget : promptBudgetPercent,
  };
}

/** The standing focus, unless the person's own `/compact <instructions>` already say it. */
function standingFocus(workspace: WorkspaceSettings, instructions: string | null): string | null {
  if (workspace.focus === null) return null;
  return instructions !== null && instructions.toLowerCase().includes(workspace.focus.toLowerCase()) ? null : workspace.focus;
}

function renderFocus(focus: string | null): string {
  return focus === null ? '' : `Focus the summary on: ${focus}\n(the standing focus set for this workspace in Context Lens)\n`;
}

/**
 * One line per run, appended in a single write (O_APPEND) so concurrent hooks do not interleave.
 * Secrets pasted into a focus text or quoted by an error never reach the log, and the file (focus
 * texts, errors) is the person's alone: 0600 in a 0700 folder, tightened if an older run left it open.
 * Only a regular file is written: opened non-blocking, a named pipe without a reader fails at once
 * (ENXIO) instead of holding the hook, and a pipe with one or a device is left alone after fstat.
 */
function recordEvent(event: HookEventLine, io: Io): void {
  const path = hookEventsPath(io.env);
  try {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    const fd = openSync(path, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NONBLOCK, 0o600);
    try {
      const stats = fstatSync(fd);
      if (!stats.isFile()) {
        io.err.write(
          `ctxlens hook: ${path} is not a regular file (${stats.isFIFO() ? 'a named pipe' : stats.isDirectory() ? 'a folder' : 'a device or socket'}); this run is not logged\n`,
        );
        return;
      }
      fchmodSync(fd, 0o600);
      writeSync(fd, `${redactSecrets(formatHookEvent(event))}\n`);
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    // Said on stderr only: the hook's own output (stdout) must stay clean for the agent, and it exits 0.
    const code = (error as NodeJS.ErrnoException).code;
    io.err.write(
      `ctxlens hook: ${path} could not be written${code === 'ENXIO' ? ' (a named pipe nobody reads)' : code ? ` (${code})` : ''}; this run is not logged\n`,
    );
  }
}
