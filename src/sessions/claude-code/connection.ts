// Connecting Claude Code to Context Lens: the PreCompact and SessionStart hooks and the status line
// in a project's `.claude/settings.local.json`. Pure text in, text out, so the host can show the
// diff before anything is written. Connect only appends (or re-points its own entries); Disconnect
// cuts out exactly what Connect appended, so on a file that held nothing of ours it gives back the
// same bytes. Our entries are marked: the command is exactly CONNECT_MARKER, a Node.js (any: nvm or
// an update may move it) and our script with its arguments; a command that merely contains ours,
// like `notify.sh && <ours>`, is the person's.
import type { Result } from '../../base/result';
import { CLI_COMMAND, type CommandPaths, type ConnectionState } from '../connection';
import {
  append,
  applyEdits,
  layoutOf,
  memberOf,
  parseObject,
  pretty,
  properties,
  remove,
  replaceString,
  valueOf,
  isPretty,
  type Edit,
  type Layout,
  type Node,
} from '../common/jsoncEdit';

export const SETTINGS_FILE = ['.claude', 'settings.local.json'] as const;

/** Starts every command Connect writes; harmless to the shell, unmistakable to Disconnect. */
const CONNECT_MARKER = 'CONTEXT_LENS_CONNECT=1';

/** The three commands Connect writes, and the runner (Node.js, or our launcher) each starts with after the marker. */
export interface ConnectionCommands {
  readonly runner: string;
  readonly preCompact: string;
  readonly sessionStart: string;
  readonly statusLine: string;
  /** The same commands through a Node.js and the bundles' paths: ours too, whichever form is written. */
  readonly direct: Omit<ConnectionCommands, 'direct'>;
}

/** What our launcher is given for each command (it runs `statusline` with the light status line bundle). */
const LAUNCHER_ARGS = { preCompact: 'hook pre-compact', sessionStart: 'hook session-start', statusLine: 'statusline' } as const;

/** One double-quoted word as `connectionCommands` writes it: nothing in it the shell would expand or end. */
const QUOTED = String.raw`"(?:[^"\\$\x60]|\\["\\$\x60])*"`;
const RUNNER = new RegExp(`^${CONNECT_MARKER} (?:ELECTRON_RUN_AS_NODE=1 )?${QUOTED}$`);

/**
 * Claude Code runs hook commands through a shell (bash; Git Bash on Windows), so paths are
 * double-quoted with the characters bash still expands there escaped and, on Windows, written
 * with forward slashes, which both shells accept.
 */
export function connectionCommands({ node, electronRunAsNode = false, binDir, platform, viaLauncher = false }: CommandPaths): ConnectionCommands {
  const path = (value: string): string => `"${(platform === 'win32' ? value.replace(/\\/g, '/') : value).replace(/["$`\\]/g, '\\$&')}"`;
  const script = (name: string): string => path(`${binDir.replace(/[\\/]+$/, '')}/${name}`);
  const runner = `${electronRunAsNode ? 'ELECTRON_RUN_AS_NODE=1 ' : ''}${path(node)}`;
  const run = `${CONNECT_MARKER} ${runner}`;
  const direct = {
    runner,
    preCompact: `${run} ${script('cli.js')} hook pre-compact`,
    sessionStart: `${run} ${script('cli.js')} hook session-start`,
    statusLine: `${run} ${script('statusline.js')}`,
  };
  return viaLauncher ? { runner: CLI_COMMAND, ...launcherCommands(), direct } : { ...direct, direct };
}

/** Our launcher by name: no Node.js path in the person's settings, nothing to re-point when it moves. */
function launcherCommands(): Record<CommandKey, string> {
  return {
    preCompact: `${CONNECT_MARKER} ${CLI_COMMAND} ${LAUNCHER_ARGS.preCompact}`,
    sessionStart: `${CONNECT_MARKER} ${CLI_COMMAND} ${LAUNCHER_ARGS.sessionStart}`,
    statusLine: `${CONNECT_MARKER} ${CLI_COMMAND} ${LAUNCHER_ARGS.statusLine}`,
  };
}

/** The settings text after the edit (with whether it changed and what to tell the person), or why the file is left alone. */
export type SettingsEdit = Result<{ readonly text: string; readonly changed: boolean; readonly notes: readonly string[] }>;

type CommandKey = 'preCompact' | 'sessionStart' | 'statusLine';

/** Which event each of our hooks hangs on, and the matcher it needs. */
const OUR_HOOKS = [
  { event: 'PreCompact', key: 'preCompact', matcher: null },
  { event: 'SessionStart', key: 'sessionStart', matcher: 'compact' },
] as const;

/** Ours: the marker, one runner word, then exactly our script and arguments; or the marker and our launcher with its arguments. Nothing before or after. */
function isOurs(command: unknown, commands: ConnectionCommands, key: CommandKey): boolean {
  if (typeof command !== 'string') return false;
  if (command === launcherCommands()[key]) return true;
  const { direct } = commands;
  const tail = direct[key].slice(`${CONNECT_MARKER} ${direct.runner}`.length);
  return command.endsWith(tail) && RUNNER.test(command.slice(0, command.length - tail.length));
}

/** The `command` string node of a hook entry or status line object, when there is one. */
function commandNode(entry: Node | undefined): Node | undefined {
  const node = valueOf(entry, 'command');
  return node?.type === 'string' ? node : undefined;
}

interface Found {
  /** Hook entries of ours, by group, in file order. */
  readonly groups: readonly { readonly group: Node; readonly ours: readonly Node[]; readonly all: boolean }[];
  readonly array: Node | undefined;
}

function findHooks(root: Node | undefined, event: string, commands: ConnectionCommands, key: CommandKey): Found {
  const hooks = valueOf(root, 'hooks');
  const array = valueOf(hooks, event);
  const groups =
    array?.type !== 'array'
      ? []
      : (array.children ?? []).flatMap((group) => {
          const entries = valueOf(group, 'hooks');
          if (entries?.type !== 'array') return [];
          const all = entries.children ?? [];
          const ours = all.filter((entry) => isOurs(commandNode(entry)?.value, commands, key));
          return ours.length === 0 ? [] : [{ group, ours, all: ours.length === all.length }];
        });
  return { groups, array };
}

function ourStatusLine(root: Node | undefined, commands: ConnectionCommands): Node | undefined {
  const line = valueOf(root, 'statusLine');
  return isOurs(commandNode(line)?.value, commands, 'statusLine') ? line : undefined;
}

/** Where the file's shape keeps us from editing it safely, the reason; else null. */
function unfit(root: Node | undefined): string | null {
  const hooks = valueOf(root, 'hooks');
  const twice = [
    ...(['hooks', 'statusLine'] as const).filter((key) => properties(root, key).length > 1),
    ...OUR_HOOKS.filter(({ event }) => properties(hooks, event).length > 1).map(({ event }) => `hooks.${event}`),
  ];
  if (twice.length > 0) return `"${twice[0] ?? ''}" appears more than once (Claude Code reads only the last)`;
  if (hooks !== undefined && hooks.type !== 'object') return '"hooks" is not an object';
  const event = OUR_HOOKS.find(({ event: name }) => {
    const groups = valueOf(hooks, name);
    return groups !== undefined && groups.type !== 'array';
  });
  return event === undefined ? null : `"hooks.${event.event}" is not a list of hook groups`;
}

const group = (matcher: string | null, command: string) => ({ ...(matcher === null ? {} : { matcher }), hooks: [{ type: 'command', command }] });

/** The file Connect writes where there is none. */
function fresh(commands: ConnectionCommands): string {
  const settings = {
    hooks: Object.fromEntries(OUR_HOOKS.map(({ event, key, matcher }) => [event, [group(matcher, commands[key])]])),
    statusLine: { type: 'command', command: commands.statusLine },
  };
  return `${pretty(settings, '', { eol: '\n', unit: '  ' })}\n`;
}

/** How much of the connection a settings text holds. */
export function connectionState(text: string | null, commands: ConnectionCommands): ConnectionState {
  const parsed = parseObject(text ?? '');
  if (!parsed.ok) return 'disconnected';
  const hooks = OUR_HOOKS.map(({ event, key }) => findHooks(parsed.value, event, commands, key).groups.length > 0);
  if (hooks.every(Boolean)) return 'connected';
  return hooks.some(Boolean) || ourStatusLine(parsed.value, commands) !== undefined ? 'partial' : 'disconnected';
}

/** One step of an edit: the next change to make to the current text, or null when done. */
type Step = (text: string, root: Node, layout: Layout) => Edit[] | null;

/** Applies steps one at a time, each on the text the previous one left. */
function run(text: string, steps: readonly Step[]): string {
  let current = text;
  for (const step of steps) {
    // A step is repeated until it has nothing left to do; a settings file has few entries.
    for (let guard = 0; guard < 1000; guard++) {
      const parsed = parseObject(current);
      if (!parsed.ok || parsed.value === undefined) return current;
      const edits = step(current, parsed.value, layoutOf(current, parsed.value));
      if (edits === null || edits.length === 0) break;
      current = applyEdits(current, edits);
    }
  }
  return current;
}

/**
 * Adds our hooks (each in a group of its own, at the end of its event's list) and, when none is
 * set, our status line; entries of ours that start another Node.js are pointed at the current one.
 */
export function connect(text: string | null, commands: ConnectionCommands): SettingsEdit {
  const refused = (reason: string): SettingsEdit => ({
    ok: false,
    error: `.claude/settings.local.json was left alone: ${reason}. Fix or remove it, then connect again.`,
  });
  const parsed = parseObject(text ?? '');
  if (!parsed.ok) return refused(parsed.error);
  if (parsed.value === undefined) return { ok: true, value: { text: fresh(commands), changed: true, notes: [] } };
  const reason = unfit(parsed.value);
  if (reason !== null) return refused(reason);
  const notes: string[] = [];
  const before = text as string;
  const repoint = (command: Node | undefined, key: CommandKey): Edit[] =>
    command !== undefined && command.value !== commands[key] ? [replaceString(command, commands[key])] : [];
  const steps: Step[] = OUR_HOOKS.map(({ event, key, matcher }) => (current, root, layout) => {
    const found = findHooks(root, event, commands, key);
    if (found.groups.length > 0) return found.groups.flatMap(({ ours }) => ours.flatMap((entry) => repoint(commandNode(entry), key)));
    const hooks = valueOf(root, 'hooks');
    if (hooks === undefined) return [append(current, root, { [event]: [group(matcher, commands[key])] }, layout, 'hooks')];
    if (found.array === undefined) return [append(current, hooks, [group(matcher, commands[key])], layout, event)];
    return [append(current, found.array, group(matcher, commands[key]), layout)];
  });
  steps.push((current, root, layout) => {
    const line = valueOf(root, 'statusLine');
    if (line === undefined) return [append(current, root, { type: 'command', command: commands.statusLine }, layout, 'statusLine')];
    return ourStatusLine(root, commands) === undefined ? null : repoint(commandNode(line), 'statusLine');
  });
  const next = run(before, steps);
  if (valueOf(parsed.value, 'statusLine') !== undefined && ourStatusLine(parsed.value, commands) === undefined)
    notes.push('Your own status line stays; Context Lens does not replace it.');
  if (connectionState(before, commands) !== 'disconnected' && next !== before) notes.push(`The Context Lens entries now start ${commands.runner}.`);
  if (valueOf(parsed.value, 'disableAllHooks')?.value === true)
    notes.push('"disableAllHooks" is true in this file, so Claude Code will not run the hooks until you remove it.');
  return { ok: true, value: { text: next, changed: next !== before, notes } };
}

/**
 * Removes what `connect` adds, last added first: the status line, then each hook. A list or the
 * `hooks` object that Connect created whole goes with its last entry; one the person had stays.
 */
export function disconnect(text: string | null, commands: ConnectionCommands): SettingsEdit {
  const parsed = parseObject(text ?? '');
  if (!parsed.ok) return { ok: false, error: `.claude/settings.local.json was left alone: ${parsed.error}.` };
  if (text === null || parsed.value === undefined) return { ok: true, value: { text: text ?? '', changed: false, notes: [] } };
  const steps: Step[] = [
    (current, root, layout) => {
      const line = ourStatusLine(root, commands);
      return line === undefined ? null : remove(current, memberOf(line), layout);
    },
    ...[...OUR_HOOKS].reverse().map(({ event, key }): Step => (current, root, layout) => {
      const { groups, array } = findHooks(root, event, commands, key);
      const last = groups.at(-1);
      if (last === undefined || array === undefined) return null;
      if (!last.all) return remove(current, last.ours.at(-1) as Node, layout);
      const whole = groups.every(({ all }) => all) && groups.length === (array.children ?? []).length && isPretty(current, array, layout);
      if (!whole) return remove(current, last.group, layout);
      const hooks = array.parent?.parent as Node;
      const alone = (hooks.children ?? []).length === 1 && hooks.parent !== undefined && isPretty(current, hooks, layout);
      return remove(current, alone ? memberOf(hooks) : memberOf(array), layout);
    }),
  ];
  const next = run(text, steps);
  return { ok: true, value: { text: next, changed: next !== text, notes: [] } };
}

/** True when a settings text holds an empty object (Disconnect removes a file Connect created and left so). */
export function isEmptySettings(text: string): boolean {
  const parsed = parseObject(text);
  return parsed.ok && parsed.value !== undefined && (parsed.value.children ?? []).length === 0;
}
