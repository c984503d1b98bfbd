// Resource identity (S5): two tool results are "the same resource" when a newer one makes the older
// one stale. Files are identified by normalised path plus the read range (a read of lines 1–100
// says nothing about lines 500–600), commands by their whitespace-normalised text, searches by
// their query parameters.
import { posix } from 'node:path';
import type { ToolCategory } from './model';
import { patchTarget, shellFileRead } from './shellCommands';
import { commandOf } from './toolCategory';

const FILE_PREFIX = 'file:';
const RANGE_SEPARATOR = '#';
const RANGE_SUFFIX = /#[^#/+]*\+[^#/+]*$/;

/** Forward slashes, no `.`/`..` or doubled slashes, no trailing slash, lower-case drive letter. */
export function normalizePath(path: string): string {
  let normal = path.trim().replace(/\\/g, '/');
  normal = normal.replace(/^([A-Za-z]):/, (_match, drive: string) => `${drive.toLowerCase()}:`);
  normal = posix.normalize(normal);
  if (normal.length > 1 && normal.endsWith('/')) normal = normal.slice(0, -1);
  return normal;
}

function firstString(input: Record<string, unknown>, names: readonly string[]): string | undefined {
  for (const name of names) {
    const value = input[name];
    if (typeof value === 'string' && value.trim() !== '') return value;
  }
  return undefined;
}

const PATH_FIELDS = ['file_path', 'notebook_path', 'path', 'target_file', 'file', 'filename', 'absolute_path'];

/** JSON with sorted keys, so `{a, b}` and `{b, a}` name the same query. */
function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, inner]) => `${JSON.stringify(key)}:${stableJson(inner)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

function readRange(input: Record<string, unknown>): string {
  const offset = input.offset ?? input.start_line ?? input.StartLine;
  const limit = input.limit ?? input.end_line ?? input.EndLine;
  return offset === undefined && limit === undefined ? '' : `${RANGE_SEPARATOR}${String(offset ?? '')}+${String(limit ?? '')}`;
}

/** The resource a tool call touches, or undefined when the input names none we can identify. */
export function resourceKeyOf(toolName: string, category: ToolCategory, input: Record<string, unknown>): string | undefined {
  const path = firstString(input, PATH_FIELDS);
  switch (category) {
    case 'file_read':
    case 'view_file': {
      const url = firstString(input, ['url']);
      if (url) return `url:${url}`;
      // A shell command that only prints a file (agents whose only file tool is the shell read with cat, sed -n, head, tail).
      const shell = path === undefined ? shellFileRead(commandOf(input) ?? '') : null;
      if (shell !== null) return `${FILE_PREFIX}${normalizePath(shell.path)}${readRange({ offset: shell.offset, limit: shell.limit })}`;
      return path ? `${FILE_PREFIX}${normalizePath(path)}${readRange(input)}` : undefined;
    }
    case 'file_write': {
      // A patch tool names its files inside the patch text.
      const target = path ?? (typeof input.input === 'string' ? patchTarget(input.input) : null);
      return target ? `${FILE_PREFIX}${normalizePath(target)}` : undefined;
    }
    case 'command_execution':
    case 'test_execution': {
      const command = firstString(input, ['command', 'cmd', 'script']);
      return command ? `cmd:${command.trim().replace(/\s+/g, ' ')}` : `tool:${toolName}:${stableJson(input)}`;
    }
    case 'list_directory':
      return `dir:${normalizePath(path ?? '.')}`;
    case 'search':
      return `search:${toolName}:${stableJson(input)}`;
    case 'other':
      return `tool:${toolName}:${stableJson(input)}`;
  }
}

/** The file path of a `file:` resource key without its read range; undefined for other resources. */
export function filePathOf(resourceKey: string | undefined): string | undefined {
  if (!resourceKey?.startsWith(FILE_PREFIX)) return undefined;
  // Match the whole `#offset+limit` suffix so a `#` inside a file name is not taken for a range.
  return resourceKey.slice(FILE_PREFIX.length).replace(RANGE_SUFFIX, '');
}

/** A short human label for a resource, used in stubs and reasons. */
export function resourceLabel(resourceKey: string): string {
  const file = filePathOf(resourceKey);
  if (file !== undefined) {
    const range = resourceKey.slice(FILE_PREFIX.length + file.length);
    return range === '' ? file : `${file} (offset ${range.slice(1).replace('+', ', limit ')})`;
  }
  const colon = resourceKey.indexOf(':');
  return colon === -1 ? resourceKey : resourceKey.slice(colon + 1);
}
