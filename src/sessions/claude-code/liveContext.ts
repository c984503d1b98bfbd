// What the agent's model sees right now. The index pass finds the last compaction; only the records
// after it are parsed, the live chain is walked from the newest leaf, and where Claude Code
// recorded the exact request body, that body replaces the reconstruction.
import { basename, dirname } from 'node:path';
import { failFromError, ok } from '../result';
import type { ApiMessage, ContextEntry, Diagnostic, LiveContext, Result, SessionInfo } from '../types';
import { RecordGraph, type ChainWalk } from './chain';
import { FillTracker, type FillOptions } from './fill';
import { readForward } from './jsonl';
import { readSessionInfo } from './listing';
import { messagesFromChain } from './messages';
import { isCompactBoundary, str, toolUseIds, type LocatedRecord } from './records';
import { rebuildRequest } from './request';
import { indexTranscript, type TranscriptIndex } from './scan';

export interface LiveContextOptions extends FillOptions {
  /** Picker information already known (saves re-reading the file's head and tail). */
  session?: SessionInfo;
}

/** `<project>/<sessionId>/subagents/agent-<id>.jsonl` is a subagent of session `<sessionId>`. */
export function subagentParent(path: string): string | undefined {
  const folder = dirname(path);
  return basename(folder) === 'subagents' && basename(path).startsWith('agent-') ? basename(dirname(folder)) : undefined;
}

interface ChainBuild {
  walk: ChainWalk | null;
  tracker: FillTracker;
  diagnostics: Diagnostic[];
}

async function buildChain(path: string, start: { offset: number; line: number }, sidechain: boolean): Promise<ChainBuild> {
  const read = await readForward(path, { start: start.offset, startLine: start.line });
  const graph = new RecordGraph(path);
  const tracker = new FillTracker(sidechain);
  for (const located of read.records) {
    graph.add(located);
    if (located.record.type === 'api-request') tracker.observe(located);
  }
  for (const { record } of read.records) if (isCompactBoundary(record)) graph.relinkPreserved(record);
  const leaf = graph.liveLeaf(sidechain);
  const walk = leaf === null ? null : graph.walk(leaf);
  for (const located of walk?.records ?? []) tracker.observe(located);
  return { walk, tracker, diagnostics: [...read.diagnostics, ...graph.diagnostics()] };
}

export async function readLiveContext(path: string, options: LiveContextOptions = {}): Promise<Result<LiveContext>> {
  const parentSessionId = subagentParent(path);
  const sidechain = options.sidechain ?? parentSessionId !== undefined;
  let session = options.session;
  if (session === undefined) {
    const info = await readSessionInfo(path, parentSessionId);
    if (!info.ok) return info;
    session = info.value;
  }
  try {
    const index = await indexTranscript(path, sidechain);
    // A boundary that preserved part of the old chain needs the records before it as well.
    const boundary = index.lastBoundary;
    const fromBoundary = boundary !== null && !boundary.preserved;
    let built = await buildChain(path, fromBoundary ? boundary : { offset: 0, line: 1 }, sidechain);
    if (fromBoundary && built.walk?.stop === 'missing-parent') built = await buildChain(path, { offset: 0, line: 1 }, sidechain);
    const chain = messagesFromChain(built.walk?.records ?? [], path);
    const fill = built.tracker.snapshot(options);
    const context: LiveContext = {
      session,
      source: 'chain',
      model: fill.model,
      messages: chain.messages,
      entries: chain.entries,
      fill,
      compactions: index.compactions,
      diagnostics: [],
    };
    const diagnostics = [...index.diagnostics, ...built.diagnostics, ...chain.diagnostics];
    const requestId = lastRequestRef(built.walk?.records ?? []);
    if (requestId !== null && index.requests.has(requestId)) diagnostics.push(...(await useRecordedRequest(context, path, index, requestId)));
    context.diagnostics = dedupe(diagnostics);
    return ok(context);
  } catch (error) {
    return failFromError(error, path);
  }
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
async function useRecordedRequest(context: LiveContext, path: string, index: TranscriptIndex, requestId: string): Promise<Diagnostic[]> {
  const outcome = await rebuildRequest(path, index, requestId);
  if (outcome.request === null) return [outcome.diagnostic];
  const { request } = outcome;
  const sent = aligned(request.messages, context.messages, context.entries);
  if (sent === null) {
    return [{ severity: 'info', code: 'request-mismatch', message: `Recorded request ${requestId} does not line up with the transcript chain; the chain is shown`, path }];
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
      if (!fromChain) turns[turns.length - 1] = { role: 'user', content: [...previous.content, ...message.content] };
      continue;
    }
    if (message !== null && message.role === 'user' && message.content.length === 0) continue;
    const position = turns.length;
    const expected = chain[position];
    if (expected === undefined) return null;
    const resolved = message ?? expected;
    if (resolved.role !== expected.role) return null;
    if (resolved.role === 'assistant' && !sameIds(toolUseIds(resolved.content), entries[position]?.toolUseIds ?? [])) return null;
    turns.push(resolved);
    fromChain = message === null;
  }
  return turns;
}

function sameIds(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((id, position) => id === b[position]);
}

/** The index pass and the chain pass may both trip over the same bad line. */
function dedupe(diagnostics: Diagnostic[]): Diagnostic[] {
  const seen = new Set<string>();
  return diagnostics.filter((diagnostic) => {
    const key = `${diagnostic.code}@${diagnostic.offset ?? ''}:${diagnostic.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
