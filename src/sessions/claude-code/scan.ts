// What a live-context build reads, without reading the whole transcript on every build.
// - `readCompactionHistory`: every compaction of the file, for the history. A byte search parses
//   only the lines that name a compaction; the result is remembered per file and continued from
//   where it stopped, so only the first build of a file pays for reading all of it.
// - `TailScan`: the file newest line first, as far back as the caller asks: to the last compaction
//   for the live chain, further only for a parent or a replay record that is still missing.
import type { Stats } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import type { CompactionEvent, Diagnostic } from '../types';
import { CompactionCollector } from './compactions';
import { loadStoredHistory, saveStoredHistory, type StoredHistory } from './historyIndex';
import { readRange, scanHandle, sealBefore } from '../common/lines';
import { RecordParser } from './jsonl';
import { isBookkeepingLine } from './bookkeeping';
import type { LocatedRecord } from './records';
import { linesBackward, type TailLine } from '../common/tail';
import { KeyFilter } from '../common/keyFilter';

export interface LineSpan {
  offset: number;
  end: number;
  line: number;
}

const COMPACT_MARKER = Buffer.from('ompact');
const BOUNDARY_MARKER = Buffer.from('"compact_boundary"');
const SUMMARY_MARKER = Buffer.from('"isCompactSummary":true');
/** The `/compact <focus>` command line, which carries the focus text (see compactions.ts). */
const COMMAND_MARKER = Buffer.from('<command-name>/compact</command-name>');
const USAGE_MARKER = Buffer.from('"usage"');

export interface CompactionHistory {
  /** Every compaction on our side (main conversation or sidechain), oldest first. */
  compactions: CompactionEvent[];
  diagnostics: Diagnostic[];
  /** Number of the last line of the bytes read (0 for an empty file): backward reads count down from it. */
  lastLine: number;
  /** The replay blobs written in those bytes, by hash: `TailScan` looks for no other. */
  blobs: KeyFilter;
}

interface HistoryState {
  dev: number;
  ino: number;
  nextOffset: number;
  nextLine: number;
  /** The bytes just before `nextOffset`: still there means the file was only appended to since. */
  seal: Buffer;
  /** What an earlier process found before the point this one resumed from (see historyIndex.ts). */
  prior: { events: CompactionEvent[]; diagnostics: Diagnostic[] };
  collector: CompactionCollector;
  parser: RecordParser;
  blobs: KeyFilter;
}

/** A host follows one session at a time and the CLI reads one: a few files are plenty. */
const HISTORY_FILES = 16;
const histories = new Map<string, HistoryState>();

/**
 * The compactions in the first `stats.size` bytes of the open transcript, and its line count.
 * Continues the previous read of the same file when the file was only appended to since: this
 * process's, or one kept on disk by an earlier process (historyIndex.ts), so only the first read
 * of a file reads all of it.
 */
export async function readCompactionHistory(handle: FileHandle, path: string, sidechain: boolean, stats: Stats): Promise<CompactionHistory> {
  const key = `${sidechain ? 'sidechain' : 'main'}:${path}`;
  const known = histories.get(key);
  // Taken out while in use: a concurrent build of the same file starts its own.
  histories.delete(key);
  const state = known !== undefined && (await continues(handle, known, stats)) ? known : await startHistory(handle, path, sidechain, stats);
  const readFrom = state.nextOffset;
  const end = await scanHandle(
    handle,
    { start: state.nextOffset, startLine: state.nextLine, end: stats.size, keepPending: true },
    (bytes, line, offset, stop) => {
      const replay = replayLine(bytes);
      if (replay?.kind === 'blobs') state.blobs.add(replay.key);
      // One search for what all markers share; most lines fail it. Each marker holds it within 16 bytes of its start.
      const shared = bytes.indexOf(COMPACT_MARKER);
      const from = Math.max(0, shared - 16);
      const marked = shared !== -1 && [BOUNDARY_MARKER, SUMMARY_MARKER, COMMAND_MARKER].some((marker) => bytes.indexOf(marker, from) !== -1);
      // After a boundary without its after size, the next response's usage (one line, then no more).
      if (!marked && !(state.collector.wantsUsage && bytes.includes(USAGE_MARKER))) {
        // Not parsed here, and lines before the last compaction are not parsed anywhere: damage is noted now.
        state.parser.checkEncoding(bytes, line, offset);
        return;
      }
      const located = state.parser.parse(bytes, line, offset, stop);
      if (located !== null) state.collector.observe(located);
    },
  );
  state.nextOffset = end.nextOffset;
  state.nextLine = end.nextLine;
  state.seal = await sealBefore(handle, end.nextOffset);
  histories.set(key, state);
  if (histories.size > HISTORY_FILES) histories.delete(histories.keys().next().value as string);
  const compactions = [...state.prior.events, ...state.collector.all()];
  const diagnostics = [...state.prior.diagnostics, ...state.parser.diagnostics()];
  if (end.nextOffset > readFrom) await saveStoredHistory(stats, sidechain, toStored(state, compactions, diagnostics));
  return {
    // Copies: a later read completes events (summary, focus) that this caller already holds.
    compactions: compactions.map((event) => ({ ...event })),
    diagnostics,
    lastLine: end.nextOffset < stats.size ? end.nextLine : end.nextLine - 1,
    blobs: state.blobs,
  };
}

async function continues(handle: FileHandle, state: HistoryState, stats: Stats): Promise<boolean> {
  if (stats.dev !== state.dev || stats.ino !== state.ino || stats.size < state.nextOffset) return false;
  return (await readRange(handle, state.nextOffset - state.seal.length, state.nextOffset)).equals(state.seal);
}

/** From where an earlier process's index says reading can resume, else from the start. */
async function startHistory(handle: FileHandle, path: string, sidechain: boolean, stats: Stats): Promise<HistoryState> {
  const fresh = { dev: stats.dev, ino: stats.ino, collector: new CompactionCollector(sidechain), parser: new RecordParser(path) };
  const stored = await loadStoredHistory(stats, sidechain);
  const seal = stored === null ? null : Buffer.from(stored.seal, 'base64');
  const blobs = stored === null ? null : KeyFilter.fromBase64(stored.blobs);
  if (stored === null || seal === null || blobs === null || !(await readRange(handle, stored.readTo - seal.length, stored.readTo)).equals(seal)) {
    return { ...fresh, nextOffset: 0, nextLine: 1, seal: Buffer.alloc(0), prior: { events: [], diagnostics: [] }, blobs: KeyFilter.empty() };
  }
  return {
    ...fresh,
    nextOffset: stored.resumeOffset,
    nextLine: stored.resumeLine,
    seal: Buffer.alloc(0),
    prior: { events: stored.events, diagnostics: stored.diagnostics },
    blobs,
  };
}

/**
 * What the next process needs: a compaction still without its summary or its after size, or a manual
 * one without its focus, may be completed by lines still to come, so reading resumes at it; otherwise
 * at the end.
 */
function toStored(state: HistoryState, compactions: readonly CompactionEvent[], diagnostics: readonly Diagnostic[]): StoredHistory {
  const last = compactions.at(-1);
  const open =
    last !== undefined &&
    last.offset !== undefined &&
    last.line !== undefined &&
    (last.summary === null || last.postTokens === null || (last.trigger === 'manual' && last.focus === null));
  const resumeOffset = open ? (last.offset as number) : state.nextOffset;
  return {
    resumeOffset,
    resumeLine: open ? (last.line as number) : state.nextLine,
    events: open ? compactions.slice(0, -1) : [...compactions],
    diagnostics: diagnostics.filter((diagnostic) => (diagnostic.offset === undefined ? !open : diagnostic.offset < resumeOffset)),
    readTo: state.nextOffset,
    seal: state.seal.toString('base64'),
    blobs: state.blobs.toBase64(),
  };
}

/** Backward searches read 1 MiB at a time into one buffer. */
const SEARCH_CHUNK_BYTES = 1 << 20;

/**
 * Where the last occurrence of each marker in [floor, to) starts, the oldest of those; null when
 * one of them does not occur. Chunks overlap by a marker's length, so none is missed at a seam.
 */
async function oldestOfLast(handle: FileHandle, markers: readonly Buffer[], floor: number, to: number): Promise<number | null> {
  const overlap = Math.max(0, ...markers.map((marker) => marker.length - 1));
  const buffer = Buffer.allocUnsafe(SEARCH_CHUNK_BYTES + overlap);
  const found = new Map<Buffer, number>();
  for (let end = to; end > floor && found.size < markers.length;) {
    const start = Math.max(floor, end - SEARCH_CHUNK_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, Math.min(to, end + overlap) - start, start);
    const bytes = buffer.subarray(0, bytesRead);
    for (const marker of markers) {
      const at = found.has(marker) ? -1 : bytes.lastIndexOf(marker);
      if (at !== -1) found.set(marker, start + at);
    }
    end = start;
  }
  return found.size === markers.length ? Math.min(...found.values()) : null;
}

/**
 * Where the newest line of `kind` named by each of `keys` starts in [floor, to), the oldest of
 * those; null when none is there. Searches newest first for the kind's line start and reads the key
 * that follows, stopping once every key was met; lines are not split nor parsed.
 */
async function oldestReplay(handle: FileHandle, kind: ReplayKind, keys: ReadonlySet<string>, floor: number, to: number): Promise<number | null> {
  const [prefix, pattern] = REPLAY_KEYS.find((entry) => entry[2] === kind) as (typeof REPLAY_KEYS)[number];
  // A line start: the newline before it (the file's first line is checked apart).
  const marker = Buffer.from(`\n${prefix}`);
  const overlap = marker.length + HEAD_BYTES;
  const buffer = Buffer.allocUnsafe(SEARCH_CHUNK_BYTES + overlap + 1);
  const met = new Set<string>();
  let oldest: number | null = null;
  const meet = (head: Buffer, offset: number): void => {
    const key = pattern.exec(head.toString('latin1'))?.[1];
    if (key === undefined || !keys.has(key) || met.has(key)) return;
    met.add(key);
    oldest = offset;
  };
  for (let end = to; end > floor && met.size < keys.size;) {
    const start = Math.max(floor, end - SEARCH_CHUNK_BYTES);
    // From the byte before `start`: the newline of a line that starts there.
    const base = Math.max(0, start - 1);
    const { bytesRead } = await handle.read(buffer, 0, Math.min(to, end + overlap) - base, base);
    const bytes = buffer.subarray(0, bytesRead);
    // Lines starting in [start, end), newest last: their newlines sit at buffer index (line start - 1 - base).
    const starts: number[] = start === 0 && bytes.subarray(0, prefix.length).toString('latin1') === prefix ? [0] : [];
    // Forward: Buffer's indexOf is several times faster than its lastIndexOf.
    for (let at = bytes.indexOf(marker, Math.max(0, start - 1 - base)); at !== -1 && at <= end - 2 - base; at = bytes.indexOf(marker, at + 1))
      starts.push(at + 1);
    for (let index = starts.length - 1; index >= 0; index--) {
      const at = starts[index] as number;
      meet(bytes.subarray(at, at + HEAD_BYTES), base + at);
    }
    end = start;
  }
  return oldest;
}

/** Replay records: `api-request` by id, `api-request-shape` by shapeHash, `api-request-blob` by hash. */
export type ReplayKind = 'requests' | 'shapes' | 'blobs';

const REPLAY_PREFIX = Buffer.from('{"type":"api-request');
const REPLAY_TELL = 9;
/** Replay records start with their type; the key fields follow within a few hundred bytes. */
const HEAD_BYTES = 512;
const REPLAY_KEYS: ReadonlyArray<[prefix: string, key: RegExp, kind: ReplayKind]> = [
  ['{"type":"api-request",', /"id":"([^"]+)"/, 'requests'],
  ['{"type":"api-request-shape",', /"shapeHash":"([^"]+)"/, 'shapes'],
  ['{"type":"api-request-blob",', /"hash":"([^"]+)"/, 'blobs'],
];

/** What a replay line is and its key (from its first HEAD_BYTES); undefined for any other line. */
function replayLine(bytes: Buffer): { kind: ReplayKind; key: string } | undefined {
  // Asked of every line read: one byte (the `a` of `"api-request`; `u` in a chain record's
  // `{"parentUuid"`) turns most away before a comparison.
  if (
    bytes[REPLAY_TELL] !== REPLAY_PREFIX[REPLAY_TELL] ||
    bytes.compare(REPLAY_PREFIX, 0, REPLAY_PREFIX.length, 0, Math.min(bytes.length, REPLAY_PREFIX.length)) !== 0
  )
    return undefined;
  const head = bytes.toString('latin1', 0, Math.min(bytes.length, HEAD_BYTES));
  for (const [prefix, pattern, kind] of REPLAY_KEYS) {
    const key = head.startsWith(prefix) ? pattern.exec(head)?.[1] : undefined;
    if (key !== undefined) return { kind, key };
  }
  return undefined;
}

/**
 * How far back from the end a live context is read: 4× the largest context window (1M tokens at
 * ~4 bytes each) in bytes. No real live context comes near it; a transcript of a million chained
 * records without a compaction would otherwise be parsed whole, gigabytes of memory for one build.
 */
export const LIVE_READ_CAP_BYTES = 4 * 1_000_000 * 4;

/**
 * A transcript read newest line first, with real line numbers (counted down from the history's
 * line count). Other records are parsed; replay records are only indexed by key, since their
 * bodies (system prompt, tools, whole messages) are needed only when a request is rebuilt.
 */
export class TailScan {
  /** Parsed records, newest first: everything read except replay records and bookkeeping lines (bookkeeping.ts). */
  readonly records: LocatedRecord[] = [];
  private readonly replay: Record<ReplayKind, Map<string, LineSpan>> = { requests: new Map(), shapes: new Map(), blobs: new Map() };
  private readonly parser: RecordParser;
  private readonly lines: AsyncGenerator<TailLine>;
  private nextLine: number;
  /** Start of the oldest line read so far. */
  private from: number;
  /** Parsing stopped at the cap (see `LIVE_READ_CAP_BYTES`); older lines are only indexed. */
  private capped = false;

  constructor(
    readonly handle: FileHandle,
    readonly path: string,
    private readonly size: number,
    lastLine: number,
    /** The blobs written in the file (the history's); without it every blob named is looked for. */
    private readonly blobs?: KeyFilter,
    private readonly capBytes = LIVE_READ_CAP_BYTES,
  ) {
    this.parser = new RecordParser(path);
    this.lines = linesBackward(handle, size);
    this.nextLine = lastLine;
    this.from = size;
  }

  /** Parsing stopped at the cap: the live context may start before what was read. */
  get truncated(): boolean {
    return this.capped;
  }

  /** No older line will be parsed: the whole file has been read, or the cap was reached. */
  get atStart(): boolean {
    return this.from === 0 || this.capped;
  }

  /** Reads and parses older lines until `stop` accepts a record (true) or the file starts (false). */
  async readUntil(stop: (located: LocatedRecord) => boolean): Promise<boolean> {
    if (this.capped) return false;
    for (let line = await this.next(); line !== null; line = await this.next()) {
      if (this.size - line.line.offset > this.capBytes) {
        this.capped = true;
        this.take(line, false);
        this.parser.add(
          'warning',
          'live-context-truncated',
          `Live context truncated at this line: read ${Math.round(this.capBytes / (1 << 20))} MB back from the end without finding its start (a compaction or the first message); older records are ignored`,
          line.number,
          line.line.end,
        );
        return false;
      }
      const located = this.take(line, true);
      if (located !== null && stop(located)) return true;
    }
    return false;
  }

  /**
   * Reads older lines, no further than `floor` (nor the cap), down to the records with these uuids.
   * A byte search for `"uuid":"<id>"` finds them first, so a reference to records that are not in
   * the file costs a search of the bytes down to `floor`, nothing parsed, not a read of the whole file.
   */
  async readBackFor(uuids: readonly string[], floor: number): Promise<boolean> {
    const markers = uuids.map((uuid) => Buffer.from(`"uuid":"${uuid}"`));
    const oldest = await oldestOfLast(this.handle, markers, Math.max(0, floor, this.size - this.capBytes), this.from);
    if (oldest === null) return false;
    return this.readUntil((located) => located.offset <= oldest);
  }

  /** The parsed records in file order, without copying them. */
  *oldestFirst(): Generator<LocatedRecord> {
    for (let index = this.records.length - 1; index >= 0; index--) yield this.records[index] as LocatedRecord;
  }

  /** Whether the lines read so far hold this replay record. */
  has(kind: ReplayKind, key: string): boolean {
    return this.replay[kind].has(key);
  }

  /** The replay record of `kind` named `key`, reading older lines (indexing only) down to `floor` if needed. */
  async find(kind: ReplayKind, key: string, floor = 0): Promise<LineSpan | undefined> {
    await this.findAll(kind, [key], floor);
    return this.replay[kind].get(key);
  }

  /**
   * Indexes the replay records of `kind` named by `keys`, reading older lines down to the oldest of
   * them, no further than `floor`. A byte search of what is left first tells which are in the file
   * at all: Claude Code names a blob for every message of a request but writes few of them, and a
   * name that was never written must cost that search, not a line-by-line read down to `floor`.
   */
  async findAll(kind: ReplayKind, keys: readonly string[], floor = 0): Promise<void> {
    const found = this.replay[kind];
    const written = kind === 'blobs' ? this.blobs : undefined;
    const wanted = new Set(keys.filter((key) => !found.has(key) && (written === undefined || written.mayHave(key))));
    if (wanted.size === 0 || this.from <= floor) return;
    const oldest = await oldestReplay(this.handle, kind, wanted, floor, this.from);
    while (oldest !== null && this.from > oldest) {
      const line = await this.next();
      if (line === null) break;
      this.take(line, false);
    }
  }

  /** The `api-request` records of the lines read so far, newest first, each read and parsed when reached. */
  async *requestsNewestFirst(): AsyncGenerator<LocatedRecord> {
    for (const span of this.replay.requests.values()) {
      const bytes = await readRange(this.handle, span.offset, span.end);
      const located = this.parser.parse(bytes.subarray(0, bytes.length - 1), span.line, span.offset, span.end);
      if (located !== null) yield located;
    }
  }

  diagnostics(): Diagnostic[] {
    return this.parser.diagnostics();
  }

  private async next(): Promise<{ line: TailLine; number: number } | null> {
    const next = await this.lines.next();
    if (next.done) return null;
    this.from = next.value.offset;
    return { line: next.value, number: this.nextLine-- };
  }

  /**
   * Replay records are indexed, never parsed here: a rebuilt request reads the few it needs by their
   * spans, and the fill takes its betas from the newest request (`requestsNewestFirst`).
   */
  private take({ line, number }: { line: TailLine; number: number }, parse: boolean): LocatedRecord | null {
    // A replay record still being written is not indexed; as any unfinished last line, it is parsed as such.
    const kind = line.terminated ? this.index(line, number) : null;
    if (!parse || kind !== null) return null;
    if (line.terminated && isBookkeepingLine(line.bytes)) {
      // Not parsed, but a damaged encoding is still noted, as for lines before the last compaction.
      this.parser.checkEncoding(line.bytes, number, line.offset);
      return null;
    }
    const located = this.parser.parse(line.bytes, number, line.offset, line.end, !line.terminated);
    if (located !== null) this.records.push(located);
    return located;
  }

  private index(line: TailLine, number: number): ReplayKind | null {
    const replay = replayLine(line.bytes);
    if (replay === undefined) return null;
    // Newest first: a record written again later keeps its newest line.
    if (!this.replay[replay.kind].has(replay.key)) this.replay[replay.kind].set(replay.key, { offset: line.offset, end: line.end, line: number });
    return replay.kind;
  }
}
