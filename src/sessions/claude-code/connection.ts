// Connecting Claude Code to Context Lens: the PreCompact and SessionStart hooks and the status line
// in a project's `.claude/settings.local.json`. Pure text in, text out, so the host can show the
// diff before anything is written. Connect only ever adds (or updates its own entries); Disconnect
// removes exactly the entries Connect writes and the containers that leaves empty. Our entries are
// recognised by the scripts they run, so a Node.js that moved (nvm, an update) does not orphan them.

export const SETTINGS_FILE = ['.claude', 'settings.local.json'] as const;

/** The three commands Connect writes, and the runner (Node.js) each starts with. */
export interface ConnectionCommands {
  readonly runner: string;
  readonly preCompact: string;
  readonly sessionStart: string;
  readonly statusLine: string;
}

export interface CommandPaths {
  /** The Node.js executable, or an Electron one when `electronRunAsNode` is set. */
  readonly node: string;
  /** VS Code's own runtime stands in for Node where none is installed. */
  readonly electronRunAsNode?: boolean;
  /** Folder holding `cli.js` and `statusline.js`. */
  readonly binDir: string;
  readonly platform: NodeJS.Platform;
}

/**
 * Claude Code runs hook commands through a shell (bash; Git Bash on Windows), so paths are
 * double-quoted with the characters bash still expands there escaped and, on Windows, written
 * with forward slashes, which both shells accept.
 */
export function connectionCommands({ node, electronRunAsNode = false, binDir, platform }: CommandPaths): ConnectionCommands {
  const path = (value: string): string => `"${(platform === 'win32' ? value.replace(/\\/g, '/') : value).replace(/["$`\\]/g, '\\$&')}"`;
  const script = (name: string): string => path(`${binDir.replace(/[\\/]+$/, '')}/${name}`);
  const run = `${electronRunAsNode ? 'ELECTRON_RUN_AS_NODE=1 ' : ''}${path(node)}`;
  return {
    runner: run,
    preCompact: `${run} ${script('cli.js')} hook pre-compact`,
    sessionStart: `${run} ${script('cli.js')} hook session-start`,
    statusLine: `${run} ${script('statusline.js')}`,
  };
}

export type ConnectionState = 'connected' | 'partial' | 'disconnected';

export type SettingsEdit =
  | { readonly ok: true; readonly text: string; readonly changed: boolean; readonly notes: readonly string[] }
  | { readonly ok: false; readonly error: string };

type Json = Record<string, unknown>;
interface HookEntry {
  type?: unknown;
  command?: unknown;
}
interface HookGroup {
  matcher?: unknown;
  hooks?: unknown;
}

/** Which event each of our hooks hangs on, and the matcher it needs. */
const OUR_HOOKS = [
  { event: 'PreCompact', key: 'preCompact', matcher: null },
  { event: 'SessionStart', key: 'sessionStart', matcher: 'compact' },
] as const;

function parse(text: string | null): { ok: true; value: Json } | { ok: false; error: string } {
  if (text === null || text.trim() === '') return { ok: true, value: {} };
  try {
    const value: unknown = JSON.parse(text);
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return { ok: false, error: 'it does not hold a JSON object' };
    return { ok: true, value: value as Json };
  } catch (error) {
    return { ok: false, error: `it is not valid JSON (${error instanceof Error ? error.message : String(error)})` };
  }
}

const render = (value: Json): string => `${JSON.stringify(value, null, 2)}\n`;
const isObject = (value: unknown): value is Json => value !== null && typeof value === 'object' && !Array.isArray(value);

function groupsOf(settings: Json, event: string): HookGroup[] | null {
  const hooks = settings.hooks;
  if (hooks === undefined) return [];
  if (!isObject(hooks)) return null;
  const groups = hooks[event];
  if (groups === undefined) return [];
  return Array.isArray(groups) ? (groups as HookGroup[]) : null;
}

type CommandKey = 'preCompact' | 'sessionStart' | 'statusLine';

/** Ours whatever Node.js runs it: the same script and arguments after any runner. */
function isOurs(command: unknown, commands: ConnectionCommands, key: CommandKey): boolean {
  return typeof command === 'string' && command.endsWith(commands[key].slice(commands.runner.length));
}

function ourEntries(groups: readonly HookGroup[], commands: ConnectionCommands, key: CommandKey): HookEntry[] {
  return groups.flatMap((group) => (Array.isArray(group.hooks) ? (group.hooks as HookEntry[]).filter((hook) => isOurs(hook.command, commands, key)) : []));
}

function statusLineCommand(settings: Json): string | null {
  const line = settings.statusLine;
  return isObject(line) && typeof line.command === 'string' ? line.command : null;
}

/** How much of the connection a settings text holds. */
export function connectionState(text: string | null, commands: ConnectionCommands): ConnectionState {
  const parsed = parse(text);
  if (!parsed.ok) return 'disconnected';
  const present = [
    ...OUR_HOOKS.map(({ event, key }) => ourEntries(groupsOf(parsed.value, event) ?? [], commands, key).length > 0),
    isOurs(statusLineCommand(parsed.value), commands, 'statusLine'),
  ];
  const hooksPresent = present.slice(0, OUR_HOOKS.length);
  if (hooksPresent.every(Boolean)) return 'connected';
  return present.some(Boolean) ? 'partial' : 'disconnected';
}

/**
 * Adds our hooks (each in a group of its own) and, when none is set, our status line; entries of
 * ours that start another Node.js are pointed at the current one.
 */
export function connect(text: string | null, commands: ConnectionCommands): SettingsEdit {
  const parsed = parse(text);
  if (!parsed.ok) return { ok: false, error: `.claude/settings.local.json was left alone: ${parsed.error}. Fix or remove it, then connect again.` };
  const settings: Json = structuredClone(parsed.value);
  const notes: string[] = [];
  let moved = false;
  for (const { event, key, matcher } of OUR_HOOKS) {
    const groups = groupsOf(settings, event);
    if (groups === null) return { ok: false, error: `.claude/settings.local.json was left alone: "hooks.${event}" is not a list of hook groups.` };
    const existing = ourEntries(groups, commands, key);
    for (const entry of existing) {
      moved ||= entry.command !== commands[key];
      entry.command = commands[key];
    }
    if (existing.length > 0) continue;
    const hooks = isObject(settings.hooks) ? settings.hooks : (settings.hooks = {});
    hooks[event] = [...groups, { ...(matcher === null ? {} : { matcher }), hooks: [{ type: 'command', command: commands[key] }] }];
  }
  const line = statusLineCommand(settings);
  if (settings.statusLine === undefined) settings.statusLine = { type: 'command', command: commands.statusLine };
  else if (isOurs(line, commands, 'statusLine')) {
    moved ||= line !== commands.statusLine;
    (settings.statusLine as Json).command = commands.statusLine;
  } else notes.push('Your own status line stays; Context Lens does not replace it.');
  if (moved) notes.push(`The Context Lens entries now start ${commands.runner}.`);
  if (settings.disableAllHooks === true) notes.push('"disableAllHooks" is true in this file, so Claude Code will not run the hooks until you remove it.');
  const next = render(settings);
  return { ok: true, text: next, changed: text === null || render(parsed.value) !== next, notes };
}

/** Removes the entries `connect` writes, the groups and lists that leaves empty, and our status line. */
export function disconnect(text: string | null, commands: ConnectionCommands): SettingsEdit {
  const parsed = parse(text);
  if (!parsed.ok) return { ok: false, error: `.claude/settings.local.json was left alone: ${parsed.error}.` };
  const settings: Json = structuredClone(parsed.value);
  if (isObject(settings.hooks)) {
    const hooks = settings.hooks;
    for (const { event, key } of OUR_HOOKS) {
      const groups = hooks[event];
      if (!Array.isArray(groups)) continue;
      const kept = (groups as HookGroup[]).flatMap((group) => {
        if (!Array.isArray(group.hooks)) return [group];
        const entries = (group.hooks as HookEntry[]).filter((hook) => !isOurs(hook.command, commands, key));
        if (entries.length === group.hooks.length) return [group];
        return entries.length === 0 ? [] : [{ ...group, hooks: entries }];
      });
      if (kept.length === 0) delete hooks[event];
      else hooks[event] = kept;
    }
    if (Object.keys(hooks).length === 0) delete settings.hooks;
  }
  if (isOurs(statusLineCommand(settings), commands, 'statusLine')) delete settings.statusLine;
  const next = render(settings);
  return { ok: true, text: next, changed: render(parsed.value) !== next, notes: [] };
}

/** True when a settings text is only `{}` (Disconnect deletes a file Connect created and left empty). */
export function isEmptySettings(text: string): boolean {
  const parsed = parse(text);
  return parsed.ok && Object.keys(parsed.value).length === 0;
}
