// Every call a Claude Code session paid for, for its cost: the whole file (calls before a
// compaction were paid too, and so were those of subagents kept in the main file by older versions),
// plus each subagent transcript in `<session>/subagents/`. Claude Code writes one line per content
// block of a response, each with the response's usage so far: a response is counted once, by its
// message id and request id, with its newest line's usage (the final output count).
// Reading a whole 100 MB file costs far more than `inspect` otherwise does, so what was read is kept
// beside the compaction history (historyIndex.ts), with the same seal: a later read of a file that
// was only appended to reads the new lines only.
import type { Stats } from 'node:fs';
import { open, readdir, readFile, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { failFromError, ok } from '../result';
import type { Result, SessionCall, SessionCalls, SessionInfo, UsageBreakdown } from '../types';
import { readRange } from '../common/lines';
import { historyIndexDir, writeCacheEntry } from './historyIndex';
import { forEachRecord } from './jsonl';
import { readSessionInfo } from './listing';
import { isSubagentTranscript } from './paths';
import { messageOf, str, usageOf, uuidOf } from './records';

/** Lines without this cannot hold a usage: skipped unparsed. */
const USAGE_KEY = Buffer.from('"usage"');
const VERSION = 1;
const SEAL_BYTES = 256;
/** Responses whose later lines may still come (their keys are kept so those lines replace them). */
const OPEN_KEYS = 64;

/** input, cache write, of it 1 h, cache read, output, model (index into `models`, -1: none), timestamp. */
type PackedCall = [number, number, number, number, number, number, string | null];

interface StoredCalls {
  version: typeof VERSION;
  dev: number;
  ino: number;
  readTo: number;
  seal: string;
  models: string[];
  calls: PackedCall[];
  /** The newest responses' keys with their index in `calls`. */
  open: [string, number][];
}

const indexPath = (stats: Stats, dir: string): string => join(dir, `${stats.dev}-${stats.ino}-calls.json`);

/** The file's calls in the order they were paid, each response once. */
export async function readFileCalls(path: string, cacheDir = historyIndexDir()): Promise<SessionCall[]> {
  const handle = await open(path, 'r');
  try {
    const stats = await handle.stat();
    const stored = (await loadStored(handle, stats, cacheDir)) ?? { version: VERSION, dev: stats.dev, ino: stats.ino, readTo: 0, seal: '', models: [], calls: [], open: [] };
    const from = stored.readTo;
    const end = await readOn(path, stored, stats.size);
    if (end > from) {
      const seal = await readRange(handle, Math.max(0, end - SEAL_BYTES), end);
      await writeCacheEntry(indexPath(stats, cacheDir), { ...stored, readTo: end, seal: seal.toString('base64') });
    }
    return stored.calls.map((packed) => unpack(packed, stored.models));
  } finally {
    await handle.close();
  }
}

/** Adds the calls of the lines from `stored.readTo` to `size` (an unfinished last line left for later); returns where it stopped. */
async function readOn(path: string, stored: StoredCalls, size: number): Promise<number> {
  const open = new Map(stored.open);
  const modelIndex = new Map(stored.models.map((model, index) => [model, index]));
  const end = await forEachRecord(path, { start: stored.readTo, end: size, keepPending: true, wanted: (bytes) => bytes.includes(USAGE_KEY) }, ({ record }) => {
    const usage = usageOf(record);
    if (usage === null) return;
    const message = messageOf(record);
    const key = `${str(message?.id) ?? uuidOf(record) ?? stored.calls.length}:${str(record.requestId) ?? ''}`;
    const model = str(message?.model);
    if (model !== null && !modelIndex.has(model)) modelIndex.set(model, stored.models.push(model) - 1);
    const packed: PackedCall = [usage.inputTokens, usage.cacheCreationInputTokens, usage.cacheWrite1hTokens ?? 0, usage.cacheReadInputTokens, usage.outputTokens, model === null ? -1 : (modelIndex.get(model) as number), str(record.timestamp)];
    const at = open.get(key);
    if (at !== undefined) {
      stored.calls[at] = packed;
      return;
    }
    open.set(key, stored.calls.push(packed) - 1);
    if (open.size > OPEN_KEYS) open.delete(open.keys().next().value as string);
  });
  stored.open = [...open];
  return end.nextOffset;
}

function unpack([input, write, hour, read, output, model, at]: PackedCall, models: readonly string[]): SessionCall {
  const usage: UsageBreakdown = { inputTokens: input, cacheCreationInputTokens: write, cacheReadInputTokens: read, outputTokens: output };
  if (hour > 0) usage.cacheWrite1hTokens = hour;
  return { usage, model: models[model] ?? null, at };
}

/** The index of this file when it is one and the file was only appended to since; else null (read it all). */
async function loadStored(handle: FileHandle, stats: Stats, dir: string): Promise<StoredCalls | null> {
  let entry: Partial<StoredCalls> | null;
  try {
    entry = JSON.parse(await readFile(indexPath(stats, dir), 'utf8')) as Partial<StoredCalls> | null;
  } catch {
    return null;
  }
  if (entry === null || typeof entry !== 'object' || entry.version !== VERSION || entry.dev !== stats.dev || entry.ino !== stats.ino) return null;
  if (!Number.isSafeInteger(entry.readTo) || (entry.readTo as number) > stats.size || typeof entry.seal !== 'string') return null;
  if (!Array.isArray(entry.calls) || !Array.isArray(entry.models) || !Array.isArray(entry.open)) return null;
  const seal = Buffer.from(entry.seal, 'base64');
  const readTo = entry.readTo as number;
  if (!(await readRange(handle, readTo - seal.length, readTo)).equals(seal)) return null;
  return entry as StoredCalls;
}

/** The session's calls and, for a main session, those of its subagents' transcripts. */
export async function readSessionCalls(session: SessionInfo): Promise<Result<SessionCalls>> {
  let calls: SessionCall[];
  try {
    calls = await readFileCalls(session.path);
  } catch (error) {
    return failFromError(error, session.path);
  }
  const subagents: SessionCalls['subagents'] = [];
  if (!session.isSidechain) {
    const folder = join(session.projectDir, session.id, 'subagents');
    const files = (await readdir(folder).catch(() => [] as string[])).filter((name) => isSubagentTranscript(name)).sort();
    for (const name of files) {
      const info = await readSessionInfo(join(folder, name), session.id);
      const agentCalls = info.ok ? await readFileCalls(info.value.path).catch(() => null) : null;
      if (info.ok && agentCalls !== null) subagents.push({ session: info.value, calls: agentCalls });
    }
  }
  return ok({ calls, subagents });
}
