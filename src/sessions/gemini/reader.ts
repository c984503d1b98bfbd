// Reading a chat file forwards, in either shape the Gemini CLI has written: JSON lines (0.3x and
// later, `.jsonl`) or one JSON object per file (0.1x–0.2x, `.json`, often pretty-printed). A `.json`
// file is read whole, within a cap, as the CLI's own legacy fallback does; when it is not one JSON
// object (the CLI renames `.json` to `.jsonl` on resume, but a copy may keep the old name) its lines
// are read instead. Nothing is kept: each record goes to `visit`.
import { isUtf8 } from 'node:buffer';
import type { FileHandle } from 'node:fs/promises';
import { flatten, MAX_NESTING } from '../common/jsonRecords';
import { MAX_LINE_BYTES, scanHandle, type ScanEnd, type ScanOptions } from '../common/lines';
import type { Diagnostic } from '../types';
import { ChatLineParser } from './parser';
import { obj, type LocatedRecord } from './records';

/** A legacy chat is one object; past this it is refused rather than held in memory whole. */
export const MAX_LEGACY_BYTES = 256 * 1024 * 1024;

export function isLegacyName(path: string): boolean {
  return path.endsWith('.json');
}

export interface ChatScan extends ScanEnd {
  diagnostics: Diagnostic[];
  /** The file was read as one legacy JSON object. */
  legacy: boolean;
}

/** Every record of an open chat file from `options.start` (lines) or the whole legacy object. */
export async function scanChat(handle: FileHandle, path: string, options: ScanOptions, visit: (located: LocatedRecord) => void): Promise<ChatScan> {
  const parser = new ChatLineParser(path);
  if (isLegacyName(path) && (options.start ?? 0) === 0) {
    const whole = await readLegacy(handle, parser);
    if (whole !== null) {
      visit(whole.located);
      return { nextOffset: whole.size, nextLine: 2, size: whole.size, diagnostics: parser.diagnostics(), legacy: true };
    }
  }
  const oversized = (line: number, offset: number): void =>
    parser.add('warning', 'oversized-line', `Line is over ${MAX_LINE_BYTES} bytes; skipped`, line, offset);
  const end = await scanHandle(handle, { ...options, oversized }, (bytes, line, offset, stop, unterminated) => {
    const located = parser.parse(bytes, line, offset, stop, unterminated);
    if (located !== null) visit(located);
  });
  return { ...end, diagnostics: parser.diagnostics(), legacy: false };
}

/** The legacy file as one record, or null when it is not one JSON object (then it is read as lines). */
async function readLegacy(handle: FileHandle, parser: ChatLineParser): Promise<{ located: LocatedRecord; size: number } | null> {
  const { size } = await handle.stat();
  if (size > MAX_LEGACY_BYTES) {
    parser.add('warning', 'oversized-file', `Legacy chat is over ${MAX_LEGACY_BYTES} bytes (${size}); read as lines instead`, 1, 0);
    return null;
  }
  const bytes = Buffer.alloc(size);
  const { bytesRead } = await handle.read(bytes, 0, size, 0);
  const text = bytes
    .subarray(0, bytesRead)
    .toString('utf8')
    .replace(/^\uFEFF/, '');
  // A JSONL file has several values; only a file that is one object whole is the legacy shape.
  if (!text.trimStart().startsWith('{')) return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  const record = obj(value);
  if (record === null) return null;
  if (flatten(record, MAX_NESTING))
    parser.add('warning', 'too-deep', `Chat nests deeper than ${MAX_NESTING} levels; the deeper part was replaced by a placeholder`, 1, 0);
  if (!isUtf8(bytes.subarray(0, bytesRead))) parser.add('warning', 'invalid-utf8', 'File is not valid UTF-8; undecodable bytes were replaced', 1, 0);
  return { located: { record, line: 1, offset: 0, end: bytesRead }, size: bytesRead };
}
