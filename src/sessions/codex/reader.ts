// Tolerant reading of rollout lines. The byte-level work (torn last lines, NUL holes, BOM, bad
// UTF-8, invalid JSON, absurd nesting) is the Claude Code adapter's line parser, reused as is; only
// its record-type check is Claude Code's, so its unknown-type notes are dropped and Codex's own
// types are counted here instead. (The lead moves the generic parser out of claude-code/ later.)
import type { FileHandle } from 'node:fs/promises';
import type { Diagnostic } from '../types';
import { MAX_LINE_BYTES, scanHandle, type ScanEnd, type ScanOptions } from '../common/lines';
import { RecordParser } from '../claude-code/jsonl';
import { KNOWN_ROLLOUT_TYPES, str, type LocatedRollout } from './records';

export class RolloutParser {
  private readonly lines: RecordParser;
  private readonly unknown = new Map<string, { count: number; line: number }>();

  constructor(private readonly path?: string) {
    this.lines = new RecordParser(path);
  }

  /** Parses one line; null (with a diagnostic unless blank) when unusable. */
  parse(bytes: Buffer, line: number, offset: number, end: number, unterminated = false): LocatedRollout | null {
    const located = this.lines.parse(bytes, line, offset, end, unterminated);
    if (located === null) return null;
    const type = str(located.record.type) ?? '(none)';
    if (!KNOWN_ROLLOUT_TYPES.has(type)) {
      const seen = this.unknown.get(type);
      if (seen) seen.count++;
      else this.unknown.set(type, { count: 1, line });
    }
    return located;
  }

  add(severity: Diagnostic['severity'], code: string, message: string, line?: number, offset?: number): void {
    this.lines.add(severity, code, message, line, offset);
  }

  /** In file order; then each unknown record type once with its count. */
  diagnostics(): Diagnostic[] {
    const found = this.lines.diagnostics().filter((diagnostic) => diagnostic.code !== 'unknown-record-type');
    const unknown: Diagnostic[] = [...this.unknown].map(([type, { count, line }]) => ({
      severity: 'info',
      code: 'unknown-record-type',
      message: `${count} rollout record(s) of unknown type '${type}' ignored`,
      ...(line > 0 ? { line } : {}),
      ...(this.path !== undefined ? { path: this.path } : {}),
    }));
    return [...found, ...unknown];
  }
}

export interface RolloutScan extends ScanEnd {
  diagnostics: Diagnostic[];
}

/** Parses every record of an open rollout from `options.start`, handing each to `visit` (nothing is kept). */
export async function scanRollout(handle: FileHandle, path: string, options: ScanOptions, visit: (located: LocatedRollout) => void): Promise<RolloutScan> {
  const parser = new RolloutParser(path);
  const oversized = (line: number, offset: number): void => parser.add('warning', 'oversized-line', `Line is over ${MAX_LINE_BYTES} bytes; skipped`, line, offset);
  const end = await scanHandle(handle, { ...options, oversized }, (bytes, line, offset, stop, unterminated) => {
    const located = parser.parse(bytes, line, offset, stop, unterminated);
    if (located !== null) visit(located);
  });
  return { ...end, diagnostics: parser.diagnostics() };
}
