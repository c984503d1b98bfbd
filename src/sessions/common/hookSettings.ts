// Our command hooks in a JSON settings file shaped as Claude Code's (`hooks.<Event>` lists of
// `{matcher?, hooks: [{type: "command", command}]}`), which Codex's `hooks.json` and Gemini CLI's
// `settings.json` share. Text in, text out, with the minimal edits of jsoncEdit.ts: Connect appends
// one group per hook at the end of its event's list (or re-points an entry of ours at the current
// command); Disconnect cuts out exactly those, so a file that held nothing of ours before gets its
// bytes back, and one Connect created from nothing becomes '' (the file is then removed).
import {
  append,
  applyEdits,
  isPretty,
  layoutOf,
  memberOf,
  parseObject,
  pretty,
  properties,
  remove,
  replaceString,
  valueOf,
  type Edit,
  type Layout,
  type Node,
} from './jsoncEdit';
import type { TextEdit } from './connectFiles';

export interface OurHook {
  readonly event: string;
  readonly matcher: string | null;
  readonly command: string;
}

/** Which command strings are ours: the exact command, or an older form of it (another Node.js, our launcher). */
export type IsOurs = (command: string, hook: OurHook) => boolean;

const group = (hook: OurHook) => ({ ...(hook.matcher === null ? {} : { matcher: hook.matcher }), hooks: [{ type: 'command', command: hook.command }] });

/** The file Connect writes where there is none. */
export function freshHookSettings(hooks: readonly OurHook[]): string {
  const events: Record<string, unknown[]> = {};
  for (const hook of hooks) (events[hook.event] ??= []).push(group(hook));
  return `${pretty({ hooks: events }, '', { eol: '\n', unit: '  ' })}\n`;
}

const commandNode = (entry: Node | undefined): Node | undefined => {
  const node = valueOf(entry, 'command');
  return node?.type === 'string' ? node : undefined;
};

interface Found {
  readonly groups: readonly { readonly group: Node; readonly ours: readonly Node[]; readonly all: boolean }[];
  readonly array: Node | undefined;
}

function find(root: Node | undefined, hook: OurHook, isOurs: IsOurs): Found {
  const array = valueOf(valueOf(root, 'hooks'), hook.event);
  const groups =
    array?.type !== 'array'
      ? []
      : (array.children ?? []).flatMap((one) => {
          const entries = valueOf(one, 'hooks');
          if (entries?.type !== 'array') return [];
          const all = entries.children ?? [];
          const ours = all.filter((entry) => {
            const command = commandNode(entry)?.value;
            return typeof command === 'string' && isOurs(command, hook);
          });
          return ours.length === 0 ? [] : [{ group: one, ours, all: ours.length === all.length }];
        });
  return { groups, array };
}

/** Why the file's shape keeps us from editing it safely, or null. */
function unfit(root: Node | undefined, hooks: readonly OurHook[]): string | null {
  const object = valueOf(root, 'hooks');
  if (properties(root, 'hooks').length > 1) return '"hooks" appears more than once';
  if (object !== undefined && object.type !== 'object') return '"hooks" is not an object';
  for (const { event } of hooks) {
    if (properties(object, event).length > 1) return `"hooks.${event}" appears more than once`;
    const list = valueOf(object, event);
    if (list !== undefined && list.type !== 'array') return `"hooks.${event}" is not a list of hook groups`;
  }
  return null;
}

type Step = (text: string, root: Node, layout: Layout) => Edit[] | null;

function run(text: string, steps: readonly Step[]): string {
  let current = text;
  for (const step of steps) {
    // A step repeats until it has nothing left to do; a settings file has few entries.
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

/** How many of our hooks the text holds. */
export function hooksPresent(text: string | null, hooks: readonly OurHook[], isOurs: IsOurs): number {
  const parsed = parseObject(text ?? '');
  return parsed.ok ? hooks.filter((hook) => find(parsed.value, hook, isOurs).groups.length > 0).length : 0;
}

export function connectHooks(text: string | null, hooks: readonly OurHook[], isOurs: IsOurs, file: string): TextEdit {
  const parsed = parseObject(text ?? '');
  if (!parsed.ok) return { ok: false, error: `${file} was left alone: ${parsed.error}. Fix or remove it, then connect again.` };
  if (parsed.value === undefined) return { ok: true, text: text !== null && text.trim() !== '' ? text : freshHookSettings(hooks) };
  const reason = unfit(parsed.value, hooks);
  if (reason !== null) return { ok: false, error: `${file} was left alone: ${reason}. Fix or remove it, then connect again.` };
  const steps: Step[] = hooks.map((hook) => (current, root, layout) => {
    const found = find(root, hook, isOurs);
    if (found.groups.length > 0)
      return found.groups.flatMap(({ ours }) =>
        ours.flatMap((entry) => {
          const node = commandNode(entry);
          return node !== undefined && node.value !== hook.command ? [replaceString(node, hook.command)] : [];
        }),
      );
    const object = valueOf(root, 'hooks');
    if (object === undefined) return [append(current, root, { [hook.event]: [group(hook)] }, layout, 'hooks')];
    if (found.array === undefined) return [append(current, object, [group(hook)], layout, hook.event)];
    return [append(current, found.array, group(hook), layout)];
  });
  return { ok: true, text: run(text as string, steps) };
}

export function disconnectHooks(text: string | null, hooks: readonly OurHook[], isOurs: IsOurs, file: string): TextEdit {
  if (text === null) return { ok: true, text: '' };
  const parsed = parseObject(text);
  if (!parsed.ok) return { ok: false, error: `${file} was left alone: ${parsed.error}.` };
  if (parsed.value === undefined) return { ok: true, text };
  const steps: Step[] = [...hooks].reverse().map((hook): Step => (current, root, layout) => {
    const { groups, array } = find(root, hook, isOurs);
    const last = groups.at(-1);
    if (last === undefined || array === undefined) return null;
    if (!last.all) return remove(current, last.ours.at(-1) as Node, layout);
    const whole = groups.every(({ all }) => all) && groups.length === (array.children ?? []).length && isPretty(current, array, layout);
    if (!whole) return remove(current, last.group, layout);
    const object = array.parent?.parent as Node;
    const alone = (object.children ?? []).length === 1 && object.parent !== undefined && isPretty(current, object, layout);
    return remove(current, alone ? memberOf(object) : memberOf(array), layout);
  });
  const next = run(text, steps);
  return { ok: true, text: next };
}
