// Tolerant parsing of chat lines. A chat file is appended to while we read it and can be damaged
// (a crash mid-write, a disk that filled up, an editor that saved it as Latin-1): every line that
// cannot be used becomes a diagnostic with its place, nothing here throws on bad content.
// (Byte-level rules like Claude Code's and Codex's line reader; that one lives inside claude-code/,
// which adapters may not import, so these few lines are Gemini's own until it moves to common/.)
import { isUtf8 } from 'node:buffer';
import type { Diagnostic } from '../types';
import { obj, type LocatedRecord } from './records';

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);
/**
 * Deepest nesting kept in a record. The CLI's own records nest about ten levels; deeper parts are
 * replaced, because code further on (the engine's JSON.stringify of a call's arguments) recurses
 * and would overflow the stack on 100k-deep input.
 */
export const MAX_NESTING = 256;

export class ChatLineParser {
  private readonly found: Diagnostic[] = [];

  constructor(private readonly path?: string) {}

  /**
   * One line (without its newline) as a record; null, with a diagnostic unless blank, when unusable.
   * `unterminated`: the file ends without a newline there, so bad JSON is a write in progress.
   */
  parse(bytes: Buffer, line: number, offset: number, end: number, unterminated = false): LocatedRecord | null {
    let start = offset === 0 && bytes.subarray(0, BOM.length).equals(BOM) ? BOM.length : 0;
    const first = start;
    while (start < bytes.length && bytes[start] === 0) start++;
    if (start > first) this.add('warning', 'nul-bytes', `${start - first} NUL byte(s) before the record (a crash left a hole in the file)`, line, offset);
    let stop = bytes.length;
    while (stop > start && (bytes[stop - 1] === 0x0d || bytes[stop - 1] === 0x20 || bytes[stop - 1] === 0x09)) stop--;
    if (stop === start) return null;
    const body = bytes.subarray(start, stop);
    if (!isUtf8(body)) this.add('warning', 'invalid-utf8', 'Line is not valid UTF-8; undecodable bytes were replaced', line, offset);
    let value: unknown;
    try {
      value = JSON.parse(body.toString('utf8'));
    } catch (error) {
      if (unterminated) this.add('warning', 'truncated-line', `Last line is incomplete (${bytes.length} bytes without a newline); ignored`, line, offset);
      else this.add('error', 'invalid-json', `Line is not valid JSON (${error instanceof Error ? error.message : String(error)}); skipped`, line, offset);
      return null;
    }
    // Only a line of more bytes than twice the limit can nest that deep: most lines skip the walk.
    if (body.length > 2 * MAX_NESTING && cutDeeperThan(value, MAX_NESTING)) {
      this.add('warning', 'too-deep', `Record nests deeper than ${MAX_NESTING} levels; the deeper part was replaced by a placeholder`, line, offset);
    }
    const record = obj(value);
    if (record === null) {
      this.add('error', 'not-an-object', 'Line is JSON but not an object; skipped', line, offset);
      return null;
    }
    return { record, line, offset, end };
  }

  add(severity: Diagnostic['severity'], code: string, message: string, line?: number, offset?: number): void {
    const diagnostic: Diagnostic = { severity, code, message };
    if (line !== undefined && line > 0) diagnostic.line = line;
    if (offset !== undefined) diagnostic.offset = offset;
    if (this.path !== undefined) diagnostic.path = this.path;
    this.found.push(diagnostic);
  }

  /** In file order. */
  diagnostics(): Diagnostic[] {
    return [...this.found].sort((a, b) => (a.offset ?? 0) - (b.offset ?? 0));
  }
}

/** Replaces what nests deeper than `limit` by a placeholder, walking with a stack of its own; true when it cut. */
export function cutDeeperThan(root: unknown, limit: number): boolean {
  let cut = false;
  const pending: { container: Record<string, unknown>; depth: number }[] = typeof root === 'object' && root !== null ? [{ container: root as Record<string, unknown>, depth: 1 }] : [];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    for (const [key, child] of Object.entries(next.container)) {
      if (typeof child !== 'object' || child === null) continue;
      if (next.depth < limit) pending.push({ container: child as Record<string, unknown>, depth: next.depth + 1 });
      else {
        next.container[key] = `[nested deeper than ${limit} levels: removed]`;
        cut = true;
      }
    }
  }
  return cut;
}
