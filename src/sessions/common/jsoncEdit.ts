// Minimal edits to a JSONC text (Claude Code's settings files). jsonc-parser gives every node its
// offsets, so an addition is spliced into the text as it stands and a removal cut out of it:
// comments, number literals, duplicate keys and the formatting of everything else stay byte for
// byte. Each kind of insertion here has exactly one removal that undoes it, which is what lets
// Disconnect give back the very text Connect started from.
import { applyEdits, createScanner, getNodeValue, parseTree, printParseErrorCode, type Edit, type Node, type ParseError } from 'jsonc-parser';
import type { Result } from '../../base/result';

export { applyEdits, getNodeValue, type Edit, type Node };

/** How the file writes line breaks and one level of indentation; additions follow it. */
export interface Layout {
  readonly eol: string;
  readonly unit: string;
}

/** The root object node (undefined for a blank text), or why the text is refused. */
export type ParsedJsonc = Result<Node | undefined>;

/** A settings file is small; anything this big is not one, and the parser recurses per level. */
const MAX_CHARS = 4 * 1024 * 1024;

/** The object a JSONC text holds; the value is undefined for a blank text. */
export function parseObject(text: string): ParsedJsonc {
  if (text.length > MAX_CHARS) return { ok: false, error: `it is larger than ${MAX_CHARS / 1024 / 1024} MB` };
  // A byte order mark (Windows editors write one) is read as a space: one UTF-16 unit for one, so
  // every offset, and so every edit, still points into the text as it stands, mark included.
  const source = text.startsWith('\uFEFF') ? ` ${text.slice(1)}` : text;
  if (source.trim() === '') return { ok: true, value: undefined };
  const errors: ParseError[] = [];
  let root: Node | undefined;
  try {
    root = parseTree(source, errors, { allowTrailingComma: true });
  } catch {
    return { ok: false, error: 'it is nested too deeply to read' };
  }
  const [first] = errors;
  if (first !== undefined) {
    const before = source.slice(0, first.offset).split('\n');
    return {
      ok: false,
      error: `it is not valid JSON (${printParseErrorCode(first.error)} at line ${before.length}, column ${(before.at(-1) ?? '').length + 1})`,
    };
  }
  if (root?.type !== 'object') return { ok: false, error: 'it does not hold a JSON object' };
  return { ok: true, value: root };
}

/** Every property of `object` named `key` (JSON.parse, and so Claude Code, keeps the last). */
export function properties(object: Node | undefined, key: string): Node[] {
  return object?.type === 'object' ? (object.children ?? []).filter((property) => property.children?.[0]?.value === key) : [];
}

/** The value of the last property `key`, as Claude Code reads it. */
export function valueOf(object: Node | undefined, key: string): Node | undefined {
  return properties(object, key).at(-1)?.children?.[1];
}

/** The property or array item that holds `node` in its parent. */
export function memberOf(node: Node): Node {
  return node.parent?.type === 'property' ? node.parent : node;
}

const end = (node: Node): number => node.offset + node.length;
const lineStart = (text: string, offset: number): number => text.lastIndexOf('\n', offset - 1) + 1;

/** The whitespace that opens the line `offset` is on. */
function lineIndent(text: string, offset: number): string {
  return /^[ \t]*/.exec(text.slice(lineStart(text, offset), offset))?.[0] ?? '';
}

/** True when only indentation comes before `offset` on its line. */
function startsLine(text: string, offset: number): boolean {
  return /^[ \t]*$/.test(text.slice(lineStart(text, offset), offset));
}

export function layoutOf(text: string, root: Node | undefined): Layout {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const first = root?.children?.[0];
  const outer = root === undefined ? '' : lineIndent(text, root.offset);
  const inner = first !== undefined && startsLine(text, first.offset) ? lineIndent(text, first.offset) : '';
  const unit = inner.startsWith(outer) && inner.length > outer.length ? inner.slice(outer.length) : '  ';
  return { eol, unit: unit.length > 10 ? '  ' : unit };
}

/** `value` as JSON.stringify indents it, its lines continuing at `base`. */
export function pretty(value: unknown, base: string, layout: Layout): string {
  return JSON.stringify(value, null, layout.unit)
    .split('\n')
    .join(layout.eol + base);
}

/** True when `node`'s text is exactly `pretty` of its value where it stands: how Connect writes a container it creates. */
export function isPretty(text: string, node: Node, layout: Layout): boolean {
  return text.slice(node.offset, end(node)) === pretty(getNodeValue(node), lineIndent(text, node.offset), layout);
}

function childIndent(text: string, container: Node, layout: Layout): string {
  const first = container.children?.[0];
  return first !== undefined && startsLine(text, first.offset) ? lineIndent(text, first.offset) : lineIndent(text, container.offset) + layout.unit;
}

/**
 * Adds `value` at the end of `container` (as property `key` for an object). After other members:
 * a comma, a line break and the members' indentation. Into an empty root: on a line of its own.
 * Into another empty container: right after the bracket, so that such a container never looks like
 * one Connect created whole (see `isPretty`), and Disconnect leaves it where it was.
 */
export function append(text: string, container: Node, value: unknown, layout: Layout, key?: string): Edit {
  const children = container.children ?? [];
  const last = children.at(-1);
  const indent = childIndent(text, container, layout);
  const member = (base: string): string => `${key === undefined ? '' : `${JSON.stringify(key)}: `}${pretty(value, base, layout)}`;
  if (last !== undefined) return { offset: end(last), length: 0, content: `,${layout.eol}${indent}${member(indent)}` };
  if (container.parent === undefined)
    return { offset: container.offset + 1, length: 0, content: `${layout.eol}${indent}${member(indent)}${layout.eol}${lineIndent(text, container.offset)}` };
  return { offset: container.offset + 1, length: 0, content: member(lineIndent(text, container.offset)) };
}

/** Replaces a value in place, written as `append` would have written it there. */
export function replaceValue(text: string, node: Node, value: unknown, layout: Layout): Edit {
  return { offset: node.offset, length: node.length, content: pretty(value, lineIndent(text, memberOf(node).offset), layout) };
}

/** Replaces a string value in place. */
export function replaceString(node: Node, value: string): Edit {
  return { offset: node.offset, length: node.length, content: JSON.stringify(value) };
}

/** Offset of the first comma in [from, to) outside comments, or -1. */
function commaIn(text: string, from: number, to: number): number {
  const gap = text.slice(from, to);
  const scanner = createScanner(gap, false);
  // Between two members there are only commas, spaces and comments (which start with a slash).
  while (scanner.getPosition() < gap.length) {
    scanner.scan();
    if (gap[scanner.getTokenOffset()] === ',') return from + scanner.getTokenOffset();
  }
  return -1;
}

const isBlank = (text: string): boolean => /^\s*$/.test(text);

/**
 * Cuts `member` (a property or an array item) out of the text. Exactly what `append` inserted when
 * the text around it is as `append` left it; otherwise the member and one comma, keeping comments.
 */
export function remove(text: string, member: Node, layout: Layout): Edit[] {
  const parent = member.parent as Node;
  const siblings = parent.children ?? [];
  const index = siblings.indexOf(member);
  const previous = siblings[index - 1];
  const next = siblings[index + 1];
  if (next === undefined && previous !== undefined && /^\s*,\s*$/.test(text.slice(end(previous), member.offset)))
    return [{ offset: end(previous), length: end(member) - end(previous), content: '' }];
  if (siblings.length === 1) {
    const closing = `${layout.eol}${lineIndent(text, parent.offset)}`;
    const opened = /^\r?\n[ \t]*$/.test(text.slice(parent.offset + 1, member.offset));
    if (parent.parent === undefined && opened && text.startsWith(closing, end(member)))
      return [{ offset: parent.offset + 1, length: end(member) + closing.length - parent.offset - 1, content: '' }];
    if (parent.parent !== undefined && member.offset === parent.offset + 1) return [{ offset: member.offset, length: member.length, content: '' }];
  }
  if (next !== undefined && isBlank(text.slice(end(member), next.offset).replace(',', '')))
    return [{ offset: member.offset, length: next.offset - member.offset, content: '' }];
  // Comments sit around it: take the member, its comma, and the line it leaves empty, nothing else.
  const comma =
    next !== undefined
      ? commaIn(text, end(member), next.offset)
      : previous !== undefined
        ? commaIn(text, end(previous), member.offset)
        : commaIn(text, end(member), end(parent) - 1);
  const from = lineStart(text, member.offset);
  const rest = text.indexOf('\n', end(member));
  const wholeLine = startsLine(text, member.offset) && rest !== -1 && isBlank(text.slice(end(member), rest)) && (comma < end(member) || comma > rest);
  const cut = wholeLine ? { offset: from, length: rest + 1 - from, content: '' } : { offset: member.offset, length: member.length, content: '' };
  return comma === -1 ? [cut] : [cut, { offset: comma, length: 1, content: '' }];
}
