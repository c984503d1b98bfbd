// Every call a Claude Code session paid for, for its cost: the whole file (calls before a
// compaction were paid too, and so were those of subagents kept in the main file by 1.x versions),
// plus each subagent transcript: in `<session>/subagents/` (2.1.x) or beside the session (2.0.x). Claude Code writes one line per content
// block of a response, each with the response's usage so far: a response is counted once, by its
// message id and request id, with its newest line's usage (the final output count), and once per
// session: 2.1.x subagents that start from a copy of the parent's history (`agent-aside_question-*`,
// `agent-acompact-*`) repeat the parent's calls under the same ids, so a subagent's response already
// seen in the main file (or an earlier subagent) is not counted again, as ccusage does.
// Reading a whole 100 MB file costs far more than `inspect` otherwise does, so what was read is kept
// beside the compaction history (historyIndex.ts), with the same seal: a later read of a file that
// was only appended to reads the new lines only. It is kept summed per model and day (calls priced
// alike), so that reading it back stays small however many calls the session made. Beside the sums
// it keeps each main-chain call's prompt side in order (`trace`, a few numbers a call): cache health
// (pricing/cache) needs the calls one after the other, with their times and models.
import type { Stats } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { failFromError, ok, openRegular } from '../result';
import { READ_CAPS, readRegularText } from '../common/regularFile';
import type { Result, SessionCall, SessionCalls, SessionInfo, UsageBreakdown } from '../types';
import { readRange, sealBefore } from '../common/lines';
import { historyIndexDir, writeCacheEntry } from './historyIndex';
import { forEachRecord } from './jsonl';
import { subagentSessions } from './listing';
import { isSidechain, messageOf, str, usageOf, uuidOf } from './records';

/** Lines without this cannot hold a usage: skipped unparsed. */
const USAGE_KEY = Buffer.from('"usage"');
const VERSION = 4;
/** Responses whose later lines may still come: kept apart by key so those lines replace them. */
const OPEN_KEYS = 64;
/**
 * Calls with a bigger prompt are kept one by one: a long-context tier may bill such a call whole at
 * other rates (the table's lowest tier starts past 200k). Smaller ones are priced alike when summed.
 */
const LONG_PROMPT = 128_000;

/** input, cache write, of it 1 h, cache read, output, model, timestamp. */
type PackedCall = [number, number, number, number, number, string | null, string | null];
/** calls, input, cache write, of it 1 h, cache read, output. */
type Sums = [number, number, number, number, number, number];
/** input, cache write, of it 1 h, cache read, index into `models` (-1: none), milliseconds since the epoch (-1: none), 1: a sidechain's. */
type TracedCall = [number, number, number, number, number, number, number];

interface StoredCalls {
  version: typeof VERSION;
  dev: number;
  ino: number;
  readTo: number;
  seal: string;
  /** By model and day (`model` NUL `YYYY-MM-DD`): the prices in force are the same for all of them. */
  summed: Record<string, Sums>;
  long: PackedCall[];
  /** The newest responses by key, oldest first; folded into `summed` or `long` once older. */
  open: [string, PackedCall][];
  /** A fingerprint (`fingerprint`) of every response counted, folded or open: each is counted once. */
  seen: string[];
  /** Main-chain responses in the order they began (their first line: the prompt side is final there). */
  trace: TracedCall[];
  models: string[];
  /** Where each open response sits in `trace`: its later lines give it their (newer) time, as its call has. */
  traceAt: Record<string, number>;
}

/** A subagent's calls are read less those of its session already counted: kept apart from a read of the file alone. */
const indexPath = (stats: Stats, dir: string, inSession: boolean): string => join(dir, `${stats.dev}-${stats.ino}-calls${inSession ? '-in-session' : ''}.json`);

export interface FileCalls {
  calls: SessionCall[];
  /** The main chain's calls one by one, in order (output tokens left at 0: the prompt side is what the cache concerns). */
  sequence: SessionCall[];
  /** Fingerprints of the responses counted in this file. */
  seen: ReadonlySet<string>;
}

/**
 * The file's calls, each response once; calls of one model on one day come summed (`count`).
 * `counted`: fingerprints of responses already counted elsewhere in the session (a subagent's copy of
 * its parent's history), left out here. Those were written before the copy was, so the result of a
 * read stays right for the lines it read and can be kept.
 */
export async function readFileCalls(path: string, cacheDir = historyIndexDir(), counted?: ReadonlySet<string>): Promise<FileCalls> {
  // A named pipe or a device named like a transcript would block or never end: regular files only.
  const handle = await openRegular(path);
  try {
    const stats = await handle.stat();
    const cachePath = indexPath(stats, cacheDir, counted !== undefined);
    const stored = (await loadStored(handle, stats, cachePath)) ?? {
      version: VERSION,
      dev: stats.dev,
      ino: stats.ino,
      readTo: 0,
      seal: '',
      summed: {},
      long: [],
      open: [],
      seen: [],
      trace: [],
      models: [],
      traceAt: {},
    };
    const from = stored.readTo;
    // Nothing appended since (the usual repeated command): no second open, no scan.
    const end = from === stats.size ? from : await readOn(path, stored, stats.size, counted);
    if (end > from) {
      const seal = await sealBefore(handle, end);
      await writeCacheEntry(cachePath, { ...stored, readTo: end, seal: seal.toString('base64') });
    }
    const calls = [
      ...Object.entries(stored.summed).map(([key, sums]) => summedCall(key, sums)),
      ...[...stored.long, ...stored.open.map(([, call]) => call)].map(unpack),
    ];
    return { calls, sequence: sequenceOf(stored), seen: new Set(stored.seen) };
  } finally {
    await handle.close();
  }
}

/**
 * A short fingerprint of a response key (53-bit string hash, base 36): the index keeps one per call
 * of the file, so a 10k-call session's index grows by about 110 KB, not by the keys' 600 KB.
 */
export function fingerprint(key: string): string {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let k = 0; k < key.length; k++) {
    const code = key.charCodeAt(k);
    h1 = Math.imul(h1 ^ code, 2654435761);
    h2 = Math.imul(h2 ^ code, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(36);
}

/** Adds the calls of the lines from `stored.readTo` to `size` (an unfinished last line left for later); returns where it stopped. */
async function readOn(path: string, stored: StoredCalls, size: number, counted: ReadonlySet<string> | undefined): Promise<number> {
  const open = new Map(stored.open);
  const seen = new Set(stored.seen);
  const end = await forEachRecord(path, { start: stored.readTo, end: size, keepPending: true, wanted: (bytes) => bytes.includes(USAGE_KEY) }, ({ record }) => {
    const usage = usageOf(record);
    if (usage === null) return;
    const message = messageOf(record);
    const key = `${str(message?.id) ?? uuidOf(record) ?? ''}:${str(record.requestId) ?? ''}`;
    const known = open.has(key);
    const print = fingerprint(key);
    // Counted in the session's other files, or already folded here (a response repeated far apart).
    if (!known && (counted?.has(print) === true || seen.has(print))) return;
    seen.add(print);
    const packed: PackedCall = [
      usage.inputTokens,
      usage.cacheCreationInputTokens,
      usage.cacheWrite1hTokens ?? 0,
      usage.cacheReadInputTokens,
      usage.outputTokens,
      str(message?.model),
      str(record.timestamp),
    ];
    const at = stored.traceAt[key];
    if (known && at !== undefined && stored.trace[at] !== undefined) stored.trace[at] = trace(stored, packed, isSidechain(record));
    if (!known) stored.traceAt[key] = stored.trace.push(trace(stored, packed, isSidechain(record))) - 1;
    open.set(key, packed);
    if (known || open.size <= OPEN_KEYS) return;
    const [oldest, call] = open.entries().next().value as [string, PackedCall];
    open.delete(oldest);
    delete stored.traceAt[oldest];
    fold(stored, call);
  });
  stored.open = [...open];
  stored.seen = [...seen];
  return end.nextOffset;
}

function fold(stored: StoredCalls, call: PackedCall): void {
  const [input, write, hour, read, output, model, at] = call;
  if (input + write + read > LONG_PROMPT) {
    stored.long.push(call);
    return;
  }
  const key = `${model ?? ''}\u0000${at?.slice(0, 10) ?? ''}`;
  const sums = stored.summed[key] ?? [0, 0, 0, 0, 0, 0];
  stored.summed[key] = [sums[0] + 1, sums[1] + input, sums[2] + write, sums[3] + hour, sums[4] + read, sums[5] + output];
}

function summedCall(key: string, [count, input, write, hour, read, output]: Sums): SessionCall {
  const [model, day] = key.split('\u0000') as [string, string];
  return { ...unpack([input, write, hour, read, output, model === '' ? null : model, day === '' ? null : `${day}T00:00:00.000Z`]), count };
}

function unpack([input, write, hour, read, output, model, at]: PackedCall): SessionCall {
  const usage: UsageBreakdown = { inputTokens: input, cacheCreationInputTokens: write, cacheReadInputTokens: read, outputTokens: output };
  if (hour > 0) usage.cacheWrite1hTokens = hour;
  return { usage, model, at };
}

function trace(stored: StoredCalls, [input, write, hour, read, , model, at]: PackedCall, sidechain: boolean): TracedCall {
  let modelIndex = model === null ? -1 : stored.models.indexOf(model);
  if (model !== null && modelIndex < 0) modelIndex = stored.models.push(model) - 1;
  const ms = at === null ? NaN : Date.parse(at);
  return [input, write, hour, read, modelIndex, Number.isFinite(ms) ? ms : -1, sidechain ? 1 : 0];
}

/**
 * The file's own chain in order: a subagent's calls in a main file (1.x) run on a cache of their own
 * and are left out; a subagent's own file holds only those.
 */
function sequenceOf(stored: StoredCalls): SessionCall[] {
  const main = stored.trace.filter((traced) => traced[6] === 0);
  return (main.length > 0 ? main : stored.trace).map((traced) => untrace(traced, stored.models));
}

function untrace([input, write, hour, read, model, ms]: TracedCall, models: readonly string[]): SessionCall {
  return unpack([input, write, hour, read, 0, models[model] ?? null, ms < 0 ? null : new Date(ms).toISOString()]);
}

/** The index of this file when it is one and the file was only appended to since; else null (read it all). */
async function loadStored(handle: FileHandle, stats: Stats, path: string): Promise<StoredCalls | null> {
  // Our own cache file, read through the same guard as anyone's: one that is odd is no index.
  const read = await readRegularText(path, READ_CAPS.ownRecord);
  if (!read.ok || read.value === null) return null;
  let entry: Partial<StoredCalls> | null;
  try {
    entry = JSON.parse(read.value) as Partial<StoredCalls> | null;
  } catch {
    return null;
  }
  if (entry === null || typeof entry !== 'object' || entry.version !== VERSION || entry.dev !== stats.dev || entry.ino !== stats.ino) return null;
  if (!Number.isSafeInteger(entry.readTo) || (entry.readTo as number) > stats.size || typeof entry.seal !== 'string') return null;
  if (
    entry.summed === null ||
    typeof entry.summed !== 'object' ||
    !Array.isArray(entry.long) ||
    !Array.isArray(entry.open) ||
    !Array.isArray(entry.seen) ||
    !Array.isArray(entry.trace) ||
    !Array.isArray(entry.models) ||
    entry.traceAt === null ||
    typeof entry.traceAt !== 'object'
  )
    return null;
  const seal = Buffer.from(entry.seal, 'base64');
  const readTo = entry.readTo as number;
  if (!(await readRange(handle, readTo - seal.length, readTo)).equals(seal)) return null;
  return entry as StoredCalls;
}

/** The session's calls and, for a main session, those of its subagents' transcripts (both layouts). */
export async function readSessionCalls(session: SessionInfo): Promise<Result<SessionCalls>> {
  let own: FileCalls;
  try {
    own = await readFileCalls(session.path);
  } catch (error) {
    return failFromError(error, session.path);
  }
  const subagents: SessionCalls['subagents'] = [];
  const agents = await subagentSessions(session);
  // Each response once per session: what the main file (and the subagents before) counted.
  const counted = agents.length === 0 ? own.seen : new Set(own.seen);
  for (const agent of agents) {
    const read = await readFileCalls(agent.path, historyIndexDir(), counted).catch(() => null);
    if (read === null) continue;
    subagents.push({ session: agent, calls: read.calls, sequence: read.sequence });
    for (const print of read.seen) (counted as Set<string>).add(print);
  }
  return ok({ calls: own.calls, sequence: own.sequence, subagents });
}
