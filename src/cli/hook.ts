// `ctxlens hook <event>`: Claude Code hook commands that keep the person's words alive through
// the agent's own compactions: their prompts word for word (within the prompt budget, newest first)
// and the rules, requests and open loops in every prompt. `pre-compact` appends them to the
// compaction instructions; `session-start` (source "compact") re-injects them into the fresh context. A hook must never get
// in the agent's way, so every failure is recorded in the events file and the hook prints nothing.
import { closeSync, constants, fchmodSync, fstatSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parse as parseJsonc, printParseErrorCode, type ParseError } from 'jsonc-parser';
import { formatHookEvent, HOOK_SETTINGS, hookEventsPath, settingId, type HookEventLine, type HookName } from '../contracts/hookEvents';
import { DEFAULT_OPTIONS, tagBudget, type TagBudget, buildPinnedSet, extractMarkedPins, extractPins, type ExtractedPins, type PinnedEntry, type PinnedSet, promptBudgetTokens, promptsWithinBudget, charEstimateTokenizer, redactSecrets, pinnableSummaryText, resolutionOf, trackState, type Resolution, type SaidItem } from '../engine';
import type { AgentHooks, PinSource } from '../sessions/connection';
import { connectableAgents } from '../sessions/connectable';
import { ok } from '../sessions/result';
import { READ_CAPS, readRegularText, withoutBom } from '../sessions/common/regularFile';
import { parseInputJson, readStdin } from './hookInput';
import { EXIT_OK, usageError, type Io } from './io';

export const HOOK_USAGE = `ctxlens hook <pre-compact|session-start>
  Claude Code hook commands (hook JSON on stdin). pre-compact prints the person's prompts word for
  word (newest first within the prompt budget), the rules, requests and open loops in all of them
  and the workspace's standing focus, to append to the compaction instructions; session-start
  prints the same again after a compaction (source "compact"). Always
  exit 0; events go to $XDG_STATE_HOME/context-lens/hook-events.jsonl (default ~/.local/state).`;

export const PINNED_SETTING = settingId(HOOK_SETTINGS.pinnedConstraints);
export const EXTRACT_SETTING = settingId(HOOK_SETTINGS.extractPinned);
export const FOCUS_SETTING = settingId(HOOK_SETTINGS.focus);
export const BUDGET_SETTING = settingId(HOOK_SETTINGS.promptBudgetPercent);

/** The fields of Claude Code's hook input that the hooks read; everything is optional and checked. */
interface HookInput {
  session_id?: unknown;
  transcript_path?: unknown;
  cwd?: unknown;
  trigger?: unknown;
  custom_instructions?: unknown;
  source?: unknown;
}

/**
 * The agent whose hooks run this command: the connectable agent that has hooks (Claude Code today;
 * the commands Connect writes name no agent, so a second one would add `--agent` to them).
 */
function agentHooks(): AgentHooks {
  const hooks = connectableAgents().flatMap(({ connection }) => (connection.hooks ? [connection.hooks] : []))[0];
  if (hooks === undefined) throw new Error('No registered agent runs Context Lens hooks');
  return hooks;
}

export async function hookCommand(args: readonly string[], io: Io): Promise<number> {
  const [name, ...extra] = args;
  const kinds = agentHooks().kinds;
  if (name === undefined || !kinds.includes(name as HookName)) throw usageError(`unknown hook '${name ?? ''}' (expected ${kinds.join(' or ')})`);
  if (extra.length > 0) throw usageError(`unexpected argument '${extra[0] ?? ''}'`);
  // Stdin over its cap is recorded as the run's error (a hook never fails Claude Code).
  const stdin = await readStdin().catch((error: unknown) => (error instanceof Error ? error : new Error(String(error))));
  return runHook(name as HookName, stdin, io);
}

/** One hook run on the given stdin text: prints the pinned block (or nothing), records the event. */
export async function runHook(name: HookName, stdin: string | Error, io: Io): Promise<number> {
  const event: HookEventLine = { time: new Date().toISOString(), hook: name, sessionId: '', trigger: null, source: null, focus: null, workspaceFocus: null, constraints: 0, openLoops: 0, printed: false, error: null };
  try {
    if (stdin instanceof Error) throw stdin;
    const input = (parseInputJson(stdin) ?? {}) as HookInput;
    Object.assign(event, { sessionId: str(input.session_id) ?? '', trigger: str(input.trigger), source: str(input.source), focus: str(input.custom_instructions) });
    // Only a compaction loses the constraints; a fresh, resumed or cleared session has its own.
    if (name === 'session-start' && input.source !== 'compact') {
      event.printed = false;
    } else {
      const workspace = await workspaceSettings(str(input.cwd));
      const { pinned, prompts, closed, transcriptError } = await collectPinned(input, workspace);
      event.error = transcriptError;
      const focus = name === 'pre-compact' ? standingFocus(workspace, str(input.custom_instructions)) : null;
      const text = renderPinned(pinned, prompts, closed, name) + renderFocus(focus);
      Object.assign(event, { constraints: pinned.constraints.length, openLoops: pinned.openLoops.length, workspaceFocus: focus, printed: text !== '' });
      // What Claude Code writes into its summary and transcript: a key in a pinned prompt stays out.
      io.out.write(redactSecrets(text));
    }
  } catch (error) {
    event.error = error instanceof Error ? error.message : String(error);
  }
  recordEvent(event, io);
  return EXIT_OK;
}

const str = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

/** What the workspace's Context Lens settings say; the defaults when a setting is not there. */
interface WorkspaceSettings {
  pinned: string[];
  extractPinned: boolean;
  focus: string | null;
  promptBudgetPercent: number;
}

/** A prompt the person typed, by its transcript line. */
interface Prompt {
  line: number;
  text: string;
}

/** An open loop a later word in the transcript closed: printed as done, never as still open. */
interface ClosedLoop {
  text: string;
  resolution: Resolution;
}

interface Collected {
  pinned: PinnedSet;
  prompts: Prompt[];
  closed: ClosedLoop[];
  /** Why the transcript could not be read; the workspace's pinned constraints are printed all the same. */
  transcriptError: string | null;
}

/** The pinned set without the loops closed since, and the prompts printed whole (the first, then the newest that fit the budget). */
async function collectPinned(input: HookInput, workspace: WorkspaceSettings): Promise<Collected> {
  const transcript = str(input.transcript_path);
  const settingsOnly = (transcriptError: string | null): Collected => ({ pinned: buildPinnedSet(workspace.pinned, []), prompts: [], closed: [], transcriptError });
  if (transcript === null || !workspace.extractPinned) return settingsOnly(null);
  let read: Awaited<ReturnType<typeof transcriptPins>>;
  try {
    read = await transcriptPins(transcript);
  } catch (error) {
    // An unreadable transcript loses its prompts, not the constraints the person pinned in settings.
    return settingsOnly(`transcript not read: ${error instanceof Error ? error.message : String(error)}`);
  }
  const { pins, prompts, said } = read;
  const { pinned, prompts: whole } = withinBudget(workspace, pins, prompts);
  // State, not history: a TODO the agent later finished, a question it answered, is not handed on as open.
  const tracker = trackState(said);
  const typed = new Set(prompts.map((prompt) => prompt.line));
  const closed: ClosedLoop[] = [];
  const open = pinned.openLoops.filter((entry) => {
    const resolution = entry.sourceId === undefined ? undefined : resolutionOf(tracker, entry.text, entry.sourceId, typed.has(entry.sourceId) ? entry.sourceId : undefined);
    if (resolution) closed.push({ text: entry.text, resolution });
    return resolution === undefined;
  });
  return { pinned: { ...pinned, openLoops: open }, prompts: whole, closed, transcriptError: null };
}

function withinBudget(workspace: WorkspaceSettings, pins: { id: number; pins: ExtractedPins }[], prompts: Prompt[]): { pinned: PinnedSet; prompts: Prompt[] } {
  const sizes = prompts.map((prompt) => ({ id: prompt.line, tokens: charEstimateTokenizer.count(prompt.text) }));
  // The hook is not told the model's window: Claude Code's default stands for it.
  const budget = promptBudgetTokens(agentHooks().defaultWindowTokens, workspace.promptBudgetPercent);
  const whole = promptsWithinBudget(sizes, budget, new Set(prompts.slice(0, 1).map((prompt) => prompt.line)));
  return { pinned: buildPinnedSet(workspace.pinned, pins), prompts: prompts.filter((prompt) => whole.has(prompt.line)) };
}

/**
 * Read from the workspace's `.vscode/settings.json` (JSON with comments), as VS Code would. Claude
 * Code waits on this hook: only a regular file under the cap is read.
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

/**
 * Rules, requests and open loops in everything the person typed in this transcript, including
 * prompts an earlier compaction already summarised away, and the prompts themselves. Open loops the
 * agent wrote itself ("TODO: …") count too, and so does what an earlier summary (Claude Code's own)
 * carried forward, by their explicit markers only. A later sentence revoking a rule drops it (see
 * buildPinnedSet).
 */
async function transcriptPins(path: string): Promise<{ pins: { id: number; pins: ExtractedPins }[]; prompts: Prompt[]; said: SaidItem[] }> {
  const sources: PinSource[] = [];
  await agentHooks().forEachPinSource(path, (source) => sources.push(source));
  // Newest first, so the tagger's allowance goes to the latest prompts; listed oldest first again.
  const budget = tagBudget();
  const pins = sources.toReversed().map(({ line, kind, text }) => ({ id: line, pins: pinsOf(kind, text, budget) }));
  const said = sources.map(({ line, kind, text }): SaidItem => ({ id: line, kind: kind === 'typed' ? 'user' : kind === 'agent' ? 'assistant' : 'summary', text }));
  return { pins: pins.toReversed(), prompts: sources.filter((source) => source.kind === 'typed').map(({ line, text }) => ({ line, text })), said };
}

function pinsOf(kind: PinSource['kind'], text: string, budget: TagBudget): ExtractedPins {
  if (kind === 'summary') return extractMarkedPins(pinnableSummaryText(text));
  if (kind === 'typed') return extractPins(text, budget);
  return { constraints: [], openLoops: extractMarkedPins(text).openLoops };
}

function renderFocus(focus: string | null): string {
  return focus === null ? '' : `Focus the summary on: ${focus}\n(the standing focus set for this workspace in Context Lens)\n`;
}

const HEADERS: Record<HookName, string> = {
  'pre-compact': "Keep the user's words below verbatim in the summary, every line word for word: their standing rules, requests and open loops, and their own prompts.",
  'session-start': 'Written by the user before this conversation was compacted; the rules, requests and open loops still apply:',
};

/** Whether any item of `entries` (rules, requests, loops) came from a prompt printed whole. */
const fromOtherPrompts = (entries: readonly PinnedEntry[], whole: ReadonlySet<number>): PinnedEntry[] => entries.filter((entry) => entry.sourceId === undefined || !whole.has(entry.sourceId));

/**
 * Rules and open loops always; requests only from prompts not printed whole (a whole prompt holds
 * its own). A prompt holding a revoked rule says so, and the revoked rules are named as revoked.
 */
function renderPinned(pinned: PinnedSet, prompts: readonly Prompt[], closed: readonly ClosedLoop[], name: HookName): string {
  const whole = new Set(prompts.map((prompt) => prompt.line));
  const requests = fromOtherPrompts(pinned.requests ?? [], whole);
  const revoked = pinned.revoked ?? [];
  if (pinned.constraints.length + pinned.openLoops.length + requests.length + prompts.length === 0) return '';
  const section = (title: string, lines: readonly string[]): string[] => (lines.length === 0 ? [] : [`${title}:`, ...lines.map((line) => `- ${line}`)]);
  // Word for word, but a revoked rule inside a prompt is marked where it stands.
  const promptLines = prompts.map((prompt) => revoked.filter((entry) => entry.sourceId === prompt.line).reduce((text, entry) => text.replace(entry.text, `${entry.text} [REVOKED later by: "${entry.by}"]`), prompt.text));
  return `${[
    HEADERS[name],
    '<pinned>',
    ...section('Constraints', pinned.constraints.map((entry) => entry.text)),
    ...section('Requests from earlier prompts', requests.map((entry) => entry.text)),
    ...section('Open loops', pinned.openLoops.map((entry) => entry.text)),
    ...section('Done since (not open any more)', closed.map(({ text, resolution }) => `${text} — ${resolution.how} later: ${resolution.text.slice(0, 300)}`)),
    ...section('Revoked (no longer apply; never present them as rules)', revoked.map((entry) => `"${entry.text}" (revoked by: "${entry.by}")`)),
    '</pinned>',
    ...(promptLines.length === 0 ? [] : ['<user-prompts>', "The user's prompts, word for word, oldest first:", ...promptLines.map((line) => `- ${line}`), '</user-prompts>']),
  ].join('\n')}\n`;
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
        io.err.write(`ctxlens hook: ${path} is not a regular file (${stats.isFIFO() ? 'a named pipe' : stats.isDirectory() ? 'a folder' : 'a device or socket'}); this run is not logged\n`);
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
    io.err.write(`ctxlens hook: ${path} could not be written${code === 'ENXIO' ? ' (a named pipe nobody reads)' : code ? ` (${code})` : ''}; this run is not logged\n`);
  }
}
