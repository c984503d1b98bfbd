// Tolerant parsing of one JSONL line into a record, for every agent that writes its sessions as
// JSON lines. A session file is appended to while we read it, by several versions of its agent, and
// sometimes damaged (crash mid-write, disk full, an editor saving it as Latin-1). Every line that
// cannot be used becomes a diagnostic with its line number; nothing here throws on bad content.
// What differs between agents (which record types exist, what else to warn about) is a dialect.
import { isUtf8 } from 'node:buffer';
import type { Diagnostic } from '../types';
import { obj, str } from './fields';

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);
/**
 * Deepest nesting kept in a record. Agents' own records nest a dozen levels; anything past this is
 * cut, because recursive code further on (JSON.stringify, clones, token counts) would overflow the
 * stack on 100k-deep input.
 */
export const MAX_NESTING = 256;
const INVALID_UTF8 = 'Line is not valid UTF-8; undecodable bytes were replaced';

/** One JSON object from a line, as parsed; only `type` is looked at here. */
export interface JsonRecord {
  type?: unknown;
  [key: string]: unknown;
}

/** A record together with where it was read. `end` is the byte offset just past its newline. */
export interface LocatedJson<R extends JsonRecord> {
  record: R;
  /** 1-based line number; 0 when the line was read backwards and its number is unknown. */
  line: number;
  offset: number;
  end: number;
}

/** What one agent's lines are. */
export interface RecordDialect<R extends JsonRecord> {
  /**
   * The `type`s the agent is known to write; others are counted so an upgrade shows up in diagnostics.
   * Absent when the agent's records have no `type` field (Gemini CLI tells them apart by their keys).
   */
  readonly knownTypes?: ReadonlySet<string>;
  /** How the unknown-type note names the records: "record(s)", "rollout record(s)". */
  readonly noun: string;
  /** A warning about a record that is still used (e.g. a usage that cannot be a reading), or null. */
  readonly warning?: (record: R) => { code: string; message: string } | null;
}

/**
 * Parses lines into records and collects what went wrong. Unknown record types are tolerated and
 * counted; `diagnostics()` reports each unknown type once with its count.
 */
export class JsonRecordParser<R extends JsonRecord> {
  private readonly found: Diagnostic[] = [];
  private readonly unknown = new Map<string, { count: number; line: number }>();

  constructor(
    private readonly dialect: RecordDialect<R>,
    private readonly path?: string,
  ) {}

  /**
   * Parses one line; returns null (with a diagnostic unless the line is blank) when unusable.
   * `unterminated`: the line had no newline at end of file, so bad JSON there is a torn write.
   */
  parse(bytes: Buffer, line: number, offset: number, end: number, unterminated = false): LocatedJson<R> | null {
    // A byte-order mark (an editor saved the file) is not part of the first record.
    let start = offset === 0 && bytes.subarray(0, BOM.length).equals(BOM) ? BOM.length : 0;
    const first = start;
    while (start < bytes.length && bytes[start] === 0) start++;
    if (start > first) this.add('warning', 'nul-bytes', `${start - first} NUL byte(s) before the record (a crash left a hole in the file)`, line, offset);
    let stop = bytes.length;
    while (stop > start && (bytes[stop - 1] === 0x0d || bytes[stop - 1] === 0x20 || bytes[stop - 1] === 0x09)) stop--;
    if (stop === start) return null;
    const body = bytes.subarray(start, stop);
    this.checkEncoding(body, line, offset);
    const text = body.toString('utf8');
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      if (unterminated) {
        this.add('warning', 'truncated-line', `Last line is incomplete (${bytes.length} bytes without a newline); ignored`, line, offset);
        return null;
      }
      this.add('error', 'invalid-json', `Line is not valid JSON (${error instanceof Error ? error.message : String(error)}); skipped`, line, offset);
      return null;
    }
    // Only a line with more opening brackets than the limit can nest that deep: most lines skip the walk.
    if (body.length > 2 * MAX_NESTING && bracketsExceed(text, MAX_NESTING) && flatten(value, MAX_NESTING)) {
      this.add('warning', 'too-deep', `Record nests deeper than ${MAX_NESTING} levels; the deeper part was replaced by a placeholder`, line, offset);
    }
    const record = obj(value) as R | null;
    if (record === null) {
      this.add('error', 'not-an-object', 'Line is JSON but not an object; skipped', line, offset);
      return null;
    }
    const warning = this.dialect.warning?.(record) ?? null;
    if (warning !== null) this.add('warning', warning.code, warning.message, line, offset);
    const type = str(record.type) ?? '(none)';
    if (this.dialect.knownTypes !== undefined && !this.dialect.knownTypes.has(type)) {
      const seen = this.unknown.get(type);
      if (seen) seen.count++;
      else this.unknown.set(type, { count: 1, line });
    }
    return { record, line, offset, end };
  }

  /** Notes a line that is not valid UTF-8 (decoding replaces the bad bytes, the rest stays usable). */
  checkEncoding(bytes: Buffer, line: number, offset: number): void {
    if (!isUtf8(bytes)) this.add('warning', 'invalid-utf8', INVALID_UTF8, line, offset);
  }

  add(severity: Diagnostic['severity'], code: string, message: string, line?: number, offset?: number): void {
    const diagnostic: Diagnostic = { severity, code, message };
    if (line !== undefined && line > 0) diagnostic.line = line;
    if (offset !== undefined) diagnostic.offset = offset;
    if (this.path !== undefined) diagnostic.path = this.path;
    this.found.push(diagnostic);
  }

  /** In file order, also when lines were parsed newest first; then each unknown record type once. */
  diagnostics(): Diagnostic[] {
    const found = [...this.found].sort((a, b) => (a.offset ?? 0) - (b.offset ?? 0));
    const unknown: Diagnostic[] = [...this.unknown].map(([type, { count, line }]) => ({
      severity: 'info',
      code: 'unknown-record-type',
      message: `${count} ${this.dialect.noun} of unknown type '${type}' ignored`,
      ...(line > 0 ? { line } : {}),
      ...(this.path !== undefined ? { path: this.path } : {}),
    }));
    return [...found, ...unknown];
  }
}

/**
 * Whether `text` holds more than `limit` opening brackets (strings' included, so never too few):
 * nesting deeper than `limit` needs that many. Counted with the native search, which a new process
 * runs at full speed, where walking every parsed record would run cold.
 */
function bracketsExceed(text: string, limit: number): boolean {
  let count = 0;
  for (const bracket of ['{', '[']) {
    for (let at = text.indexOf(bracket); at !== -1; at = text.indexOf(bracket, at + 1)) if (++count > limit) return true;
  }
  return false;
}

/**
 * Replaces every object or array nested deeper than `limit` by a placeholder string, walking
 * without recursion. Returns whether anything was replaced.
 */
export function flatten(root: unknown, limit: number): boolean {
  let cut = false;
  const stack: Array<{ value: Record<string, unknown> | unknown[]; depth: number }> =
    typeof root === 'object' && root !== null ? [{ value: root as Record<string, unknown>, depth: 1 }] : [];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const container = next.value as Record<string, unknown>;
    for (const key of Object.keys(container)) {
      const child = container[key];
      if (typeof child !== 'object' || child === null) continue;
      if (next.depth >= limit) {
        container[key] = `[nested deeper than ${limit} levels: removed]`;
        cut = true;
      } else stack.push({ value: child as Record<string, unknown>, depth: next.depth + 1 });
    }
  }
  return cut;
}
