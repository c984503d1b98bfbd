// What the agent's model sees right now, read from the end of the transcript: back to the last
// compaction (further only for a parent or a replay record the live context still needs), the live
// chain walked from the newest leaf, and where Claude Code recorded the exact request body, that
// body instead of the reconstruction. The compaction history comes from its own, remembered pass.
import type { Stats } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { ReadMemo } from '../common/readMemo';
import { ok, withFile } from '../result';
import { hasMark, markBlock } from '../../engine';
import type { ApiMessage, ContentBlock, ContextEntry, Diagnostic, LiveCall, LiveContext, Result, SessionInfo } from '../types';
import { RecordGraph, type ChainWalk } from './chain';
import { FillTracker, type CountedReading, type FillOptions } from './fill';
import { headMeasuredFirst } from './headBefore';
import { readSessionInfo } from './listing';
import { subagentParent } from './paths';
import { messagesFromChain } from './messages';
import { contextLensMark, isChainRecord, isCompactBoundary, isSidechain, obj, parentOf, str, toolUseIds, uuidOf, type LocatedRecord } from './records';
import { rebuildRequest } from './request';
import { readCompactionHistory, TailScan } from './scan';

export interface LiveContextOptions extends FillOptions {
  /** Picker information already known (saves re-reading the file's head and tail). */
  session?: SessionInfo;
}

interface ChainBuild {
  walk: ChainWalk | null;
  tracker: FillTracker;
  diagnostics: Diagnostic[];
}

/**
 * How far before a compaction its preserved segment is looked for. The segment is the newest turns
 * of the context that was compacted, written just before the boundary; 8 MiB holds a full context
 * window of records many times over. Past it (a trimmed or copied transcript), the segment is
 * reported missing instead of the whole file being read for it.
 */
const PRESERVED_SEARCH_BYTES = 8 * 1024 * 1024;

/**
 * Reads back to the newest boundary on our side, where the live context starts. A partial
 * compaction kept a segment of the old chain before its boundary: reading goes on to that segment's
 * head, no further than the compaction before or `PRESERVED_SEARCH_BYTES`. A record whose parent
 * was not met yet (a resume from before the compaction) sends reading further back until the parent
 * is found, and the chain is walked again.
 */
async function buildChain(scan: TailScan, sidechain: boolean, boundaries: readonly number[]): Promise<ChainBuild> {
  // The walk that found the live chain's root is the chain: kept, not walked again below.
  let rooted: Walked | null = null;
  await scan.readUntil((located) => {
    if (isSidechain(located.record) !== sidechain) return false;
    if (isCompactBoundary(located.record)) return true;
    rooted = rootedWalk(scan, located, sidechain);
    return rooted !== null;
  });
  const last = scan.records.at(-1);
  const boundary = last !== undefined && isCompactBoundary(last.record) && isSidechain(last.record) === sidechain ? last : undefined;
  const segment = obj(obj(boundary?.record.compactMetadata)?.preservedSegment);
  const wanted = [...new Set([str(segment?.headUuid), str(segment?.tailUuid)].filter((uuid): uuid is string => uuid !== null))];
  const missing: Diagnostic[] = [];
  if (boundary !== undefined && wanted.length > 0) {
    const previous = Math.max(0, ...boundaries.filter((offset) => offset < boundary.offset));
    if (!(await scan.readBackFor(wanted, Math.max(previous, boundary.offset - PRESERVED_SEARCH_BYTES)))) {
      const diagnostic: Diagnostic = {
        severity: 'warning',
        code: 'preserved-segment-missing',
        message: `The compaction keeps earlier records (${wanted.join(', ')}) that are not in the transcript before it; the live context starts at the compaction`,
        offset: boundary.offset,
        path: scan.path,
      };
      if (boundary.line > 0) diagnostic.line = boundary.line;
      missing.push(diagnostic);
    }
  }
  for (;;) {
    const { graph, walk } = rooted ?? walked(scan, sidechain);
    rooted = null;
    // Also a bridged one (chain.ts): the parent may only be further back than what was read.
    if (walk?.missingParent !== undefined && !scan.atStart) {
      await scan.readUntil(({ record }) => uuidOf(record) === walk.missingParent);
      continue;
    }
    const tracker = new FillTracker(sidechain);
    // The fill takes the window's betas from the newest request that names them: older ones stay unparsed.
    for await (const request of scan.requestsNewestFirst()) if (tracker.observe(request)) break;
    for (const located of walk?.records ?? []) tracker.observe(located);
    return { walk, tracker, diagnostics: [...missing, ...graph.diagnostics()] };
  }
}

interface Walked {
  graph: RecordGraph;
  walk: ChainWalk | null;
}

/** The records read so far as a graph (partial compactions' segments spliced in), walked from the newest leaf. */
function walked(scan: TailScan, sidechain: boolean): Walked {
  const graph = new RecordGraph(scan.path);
  for (const located of scan.oldestFirst()) graph.add(located);
  for (const { record } of scan.oldestFirst()) if (isCompactBoundary(record)) graph.relinkPreserved(record);
  const leaf = graph.liveLeaf(sidechain);
  return { graph, walk: leaf === null ? null : graph.walk(leaf) };
}

/**
 * The walk to `located`, just read, when it is the root the live chain starts at: a record without
 * a parent, reached by the walk from the newest leaf read so far, with nothing missing on the way;
 * else null. Reading stops there as at a compaction: what comes before it (older conversations of
 * the same file, each ending at a root of its own) is not the live context. Asked only at roots,
 * which are rare, so the walks stay few. A leaf older than this root would have to be newer by its
 * timestamp than every leaf after it, which an append-only transcript does not write.
 */
function rootedWalk(scan: TailScan, located: LocatedRecord, sidechain: boolean): Walked | null {
  if (!isChainRecord(located.record) || parentOf(located.record) !== null) return null;
  const found = walked(scan, sidechain);
  const { walk } = found;
  return walk !== null && walk.stop === 'root' && walk.bridged === 0 && walk.records.some((record) => record === located) ? found : null;
}

export async function readLiveContext(path: string, options: LiveContextOptions = {}): Promise<Result<LiveContext>> {
  const info = options.session === undefined ? await readSessionInfo(path, subagentParent(path)) : ok(options.session);
  if (!info.ok) return info;
  const session = info.value;
  const sidechain = options.sidechain ?? session.isSidechain;
  return withFile(path, async (handle) => ok(await build(handle, path, session, sidechain, options)));
}

interface Built {
  context: LiveContext;
  tracker: FillTracker;
}

/**
 * A build kept by a resident process (common/readMemo.ts). Only the fill depends on the options and
 * the session on the listing: the same ones give back the very same object, so what is derived from
 * it (engineContext.ts) is kept with it.
 */
const builds = new ReadMemo<Built>(4);

async function build(handle: FileHandle, path: string, session: SessionInfo, sidechain: boolean, options: FillOptions): Promise<LiveContext> {
  const stats = await handle.stat();
  const key = `${sidechain ? 'sidechain' : 'main'}:${path}`;
  const kept = await builds.get(key, handle, stats);
  if (kept !== undefined) {
    const fill = kept.tracker.snapshot(options);
    if (JSON.stringify(fill) === JSON.stringify(kept.context.fill) && JSON.stringify(session) === JSON.stringify(kept.context.session)) return kept.context;
    return { ...kept.context, session, fill };
  }
  const built = await buildFresh(handle, path, session, sidechain, options, stats);
  await builds.set(key, handle, stats, built);
  return built.context;
}

async function buildFresh(handle: FileHandle, path: string, session: SessionInfo, sidechain: boolean, options: FillOptions, stats: Stats): Promise<Built> {
  const history = await readCompactionHistory(handle, path, sidechain, stats);
  const scan = new TailScan(handle, path, stats.size, history.lastLine, history.blobs);
  const boundaries = history.compactions.flatMap((event) => (event.offset === undefined ? [] : [event.offset]));
  const built = await buildChain(scan, sidechain, boundaries);
  const records = built.walk?.records ?? [];
  const chain = messagesFromChain(records, path);
  const fill = built.tracker.snapshot(options);
  // The live chain opens with the newest boundary: ours carries the sizes the fork was planned with.
  const boundary = records.find((located) => isCompactBoundary(located.record))?.record;
  const mark = boundary === undefined ? null : contextLensMark(boundary);
  const context: LiveContext = {
    session,
    source: 'chain',
    model: fill.model,
    messages: chain.messages,
    entries: chain.entries,
    fill,
    compactions: history.compactions,
    diagnostics: [],
    calls: callsOf(chain.entries, built.tracker),
    startOffset: records.reduce((first, located) => Math.min(first, located.offset), stats.size),
    readEnd: stats.size,
    ...(mark?.planned !== undefined ? { planned: mark.planned } : {}),
  };
  const diagnostics = [...history.diagnostics, ...scan.diagnostics(), ...built.diagnostics, ...chain.diagnostics];
  // The request behind the newest response is written just before it, so within what was read.
  const requestId = lastRequestRef(records);
  if (requestId !== null && scan.has('requests', requestId)) {
    diagnostics.push(...(await useRecordedRequest(context, scan, requestId, boundaries)));
  }
  // After Claude Code's own compaction with no recorded request, the head its first call measured
  // holds what it re-attached once: what a fork sends again is the head measured before it.
  if (context.system === undefined && context.tools === undefined && boundary !== undefined && mark === null) {
    const head = await headMeasuredFirst(path);
    if (head !== null) context.headResent = head;
  }
  context.diagnostics = dedupe(diagnostics);
  return { context, tracker: built.tracker };
}

/**
 * One call per assistant message whose usage counts (the fill's own rule): the newest of its
 * streamed lines, which carries the final output count.
 */
function callsOf(entries: readonly ContextEntry[], tracker: FillTracker): LiveCall[] {
  const calls: LiveCall[] = [];
  for (const entry of entries) {
    if (entry.kind !== 'assistant') continue;
    let reading: CountedReading | undefined;
    for (const uuid of entry.uuids) reading = tracker.readingOf(uuid) ?? reading;
    if (reading !== undefined) calls.push({ from: entry.messageIndex, to: entry.messageIndex, usage: reading.usage, model: reading.model, at: reading.at });
  }
  return calls;
}

/** The request behind the newest assistant record of the chain (`requestRef`, 2.1.3xx). */
function lastRequestRef(records: readonly LocatedRecord[]): string | null {
  for (let index = records.length - 1; index >= 0; index--) {
    const record = (records[index] as LocatedRecord).record;
    if (record.type === 'assistant') return str(record.requestRef);
  }
  return null;
}

/**
 * Swaps in the recorded request when it lines up with the chain: same number of turns (or fewer:
 * the response and anything after it follow the request), same roles, same tool calls. Otherwise
 * the chain reconstruction stays and the mismatch is reported.
 */
async function useRecordedRequest(context: LiveContext, scan: TailScan, requestId: string, boundaries: readonly number[]): Promise<Diagnostic[]> {
  const outcome = await rebuildRequest(scan, requestId, boundaries);
  if (outcome.request === null) return [outcome.diagnostic];
  const { request } = outcome;
  const sent = aligned(request.messages, context.messages, context.entries);
  if (sent === null) {
    return [
      {
        severity: 'info',
        code: 'request-mismatch',
        message: `Recorded request ${requestId} does not line up with the transcript chain; the chain is shown`,
        path: scan.path,
      },
    ];
  }
  context.source = 'request';
  context.messages = [...sent, ...context.messages.slice(sent.length)];
  context.params = request.params;
  if (request.system) context.system = request.system;
  if (request.tools) context.tools = request.tools;
  context.model = str(request.params.model) ?? context.model;
  return [];
}

/**
 * The sent messages, turn by turn against the chain, or null when they disagree. Claude Code writes
 * a blob only for a message it cannot rebuild from the transcript (the model's own turns never, a
 * plain tool result often not); a missing blob is the chain's turn at that position. A turn's
 * reminders may be sent as extra consecutive user or system messages; the API joins those into
 * one turn, and so do we, so that messages and chain entries correspond.
 */
function aligned(separate: readonly (ApiMessage | null)[], chain: readonly ApiMessage[], entries: readonly ContextEntry[]): ApiMessage[] | null {
  const turns: ApiMessage[] = [];
  let fromChain = false;
  for (const message of separate) {
    const previous = turns.at(-1);
    if (message !== null && message.role === 'user' && previous?.role === 'user') {
      // More of the same user turn: join blobs; a turn taken from the chain already holds it.
      if (!fromChain) {
        const twin = chain[turns.length - 1];
        if (twin !== undefined) carryMarks(twin, message);
        turns[turns.length - 1] = { role: 'user', content: [...previous.content, ...message.content] };
      }
      continue;
    }
    if (message !== null && message.role === 'user' && message.content.length === 0) continue;
    const position = turns.length;
    const expected = chain[position];
    if (expected === undefined) return null;
    const resolved = message ?? expected;
    if (resolved.role !== expected.role) return null;
    if (message !== null) carryMarks(expected, message);
    if (resolved.role === 'assistant' && !sameIds(toolUseIds(resolved.content), entries[position]?.toolUseIds ?? [])) return null;
    turns.push(resolved);
    fromChain = message === null;
  }
  return turns;
}

/**
 * What the chain knows about a block's origin (a reminder, a summary, text beside a tool result) is
 * not in the recorded blob: carried over to the blob's block with the same text.
 */
function carryMarks(chain: ApiMessage, sent: ApiMessage): void {
  const known = new Map<string, ContentBlock>();
  for (const block of chain.content) if (typeof block.text === 'string') known.set(block.text, block);
  for (const block of sent.content) {
    const twin = typeof block.text === 'string' ? known.get(block.text) : undefined;
    if (twin === undefined) continue;
    for (const mark of ['harness', 'summary'] as const) if (hasMark(twin, mark)) markBlock(block, mark);
  }
}

function sameIds(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((id, position) => id === b[position]);
}

/** The history pass and the backward read may both trip over the same bad line. */
function dedupe(diagnostics: Diagnostic[]): Diagnostic[] {
  const seen = new Set<string>();
  return diagnostics.filter((diagnostic) => {
    const key = `${diagnostic.code}@${diagnostic.offset ?? ''}:${diagnostic.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
