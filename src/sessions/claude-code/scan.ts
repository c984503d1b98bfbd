// One cheap pass over a whole transcript that parses almost nothing: it finds the compactions
// (for the history and to know where the live context starts) and where the request-replay
// records sit, by looking at raw bytes. The live context is then parsed only from the last
// boundary on, and replay records only when a request is rebuilt.
import type { CompactionEvent, Diagnostic } from '../types';
import { CompactionCollector } from './compactions';
import { RecordParser, scanLines } from './jsonl';
import { isCompactBoundary, isSidechain, obj } from './records';

export interface LineSpan {
  offset: number;
  end: number;
  line: number;
}

export interface TranscriptIndex {
  compactions: CompactionEvent[];
  /** The newest boundary on our side (main or sidechain); `preserved` when it kept a segment of the old chain. */
  lastBoundary: (LineSpan & { preserved: boolean }) | null;
  /** `api-request` lines by request id, `api-request-shape` by shapeHash, `api-request-blob` by hash. */
  requests: Map<string, LineSpan>;
  shapes: Map<string, LineSpan>;
  blobs: Map<string, LineSpan>;
  diagnostics: Diagnostic[];
  size: number;
}

const COMPACT_MARKER = Buffer.from('ompact');
const BOUNDARY_MARKER = Buffer.from('"compact_boundary"');
const SUMMARY_MARKER = Buffer.from('"isCompactSummary":true');
/** The `/compact <focus>` command line, which carries the focus text (see compactions.ts). */
const COMMAND_MARKER = Buffer.from('<command-name>/compact</command-name>');
/** Bookkeeping records start with their type; the key fields follow within a few hundred bytes. */
const HEAD_BYTES = 512;
const REPLAY_PREFIX = Buffer.from('{"type":"api-request');
const REPLAY_KEYS: ReadonlyArray<[prefix: string, key: RegExp, map: 'requests' | 'shapes' | 'blobs']> = [
  ['{"type":"api-request",', /"id":"([^"]+)"/, 'requests'],
  ['{"type":"api-request-shape",', /"shapeHash":"([^"]+)"/, 'shapes'],
  ['{"type":"api-request-blob",', /"hash":"([^"]+)"/, 'blobs'],
];

export async function indexTranscript(path: string, sidechain: boolean): Promise<TranscriptIndex> {
  const parser = new RecordParser(path);
  const collector = new CompactionCollector(sidechain);
  const index: TranscriptIndex = { compactions: [], lastBoundary: null, requests: new Map(), shapes: new Map(), blobs: new Map(), diagnostics: [], size: 0 };
  const end = await scanLines(path, { keepPending: true }, (bytes, line, offset, stop) => {
    if (bytes.subarray(0, REPLAY_PREFIX.length).equals(REPLAY_PREFIX)) {
      const head = bytes.subarray(0, HEAD_BYTES).toString('latin1');
      for (const [prefix, key, map] of REPLAY_KEYS) {
        const id = head.startsWith(prefix) ? key.exec(head)?.[1] : undefined;
        if (id === undefined) continue;
        index[map].set(id, { offset, end: stop, line });
        return;
      }
    }
    // One search for what all markers share; most lines fail it.
    const shared = bytes.indexOf(COMPACT_MARKER);
    const from = Math.max(0, shared - 30);
    if (shared === -1 || [BOUNDARY_MARKER, SUMMARY_MARKER, COMMAND_MARKER].every((marker) => bytes.indexOf(marker, from) === -1)) return;
    const located = parser.parse(bytes, line, offset, stop);
    if (located === null) return;
    collector.observe(located);
    const { record } = located;
    if (isCompactBoundary(record) && isSidechain(record) === sidechain) {
      index.lastBoundary = { offset, end: stop, line, preserved: obj(obj(record.compactMetadata)?.preservedSegment) !== null };
    }
  });
  index.compactions = collector.all();
  index.diagnostics = parser.diagnostics();
  index.size = end.size;
  return index;
}
