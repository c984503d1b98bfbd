// Tolerant reading of rollout lines: the shared line parser (common/jsonRecords.ts: torn last lines,
// NUL holes, BOM, bad UTF-8, invalid JSON, absurd nesting) with Codex's record types.
import type { FileHandle } from 'node:fs/promises';
import type { Diagnostic } from '../types';
import { MAX_LINE_BYTES, scanHandle, type ScanEnd, type ScanOptions } from '../common/lines';
import { JsonRecordParser } from '../common/jsonRecords';
import { KNOWN_ROLLOUT_TYPES, type LocatedRollout, type RolloutRecord } from './records';

/** The line parser for rollouts; see JsonRecordParser. */
export class RolloutParser extends JsonRecordParser<RolloutRecord> {
  constructor(path?: string) {
    super({ knownTypes: KNOWN_ROLLOUT_TYPES, noun: 'rollout record(s)' }, path);
  }
}

export interface RolloutScan extends ScanEnd {
  diagnostics: Diagnostic[];
}

/** Parses every record of an open rollout from `options.start`, handing each to `visit` (nothing is kept). */
export async function scanRollout(handle: FileHandle, path: string, options: ScanOptions, visit: (located: LocatedRollout) => void): Promise<RolloutScan> {
  const parser = new RolloutParser(path);
  const oversized = (line: number, offset: number): void =>
    parser.add('warning', 'oversized-line', `Line is over ${MAX_LINE_BYTES} bytes; skipped`, line, offset);
  const end = await scanHandle(handle, { ...options, oversized }, (bytes, line, offset, stop, unterminated) => {
    const located = parser.parse(bytes, line, offset, stop, unterminated);
    if (located !== null) visit(located);
  });
  return { ...end, diagnostics: parser.diagnostics() };
}
