// Applies a compaction by writing a new session that Claude Code can `--resume`: a compact
// boundary, the summary as Claude Code's own compact-summary user record, then the preserved
// records re-chained. The agent's file is only ever read; the new one appears atomically.
import { SUMMARY_PREAMBLE } from '../common/forkTexts';
import { randomUUID } from '../common/crypto';
import { basename, dirname, join } from 'node:path';
import { writeNewAtomically } from '../atomicWrite';
import { fail, failFromError, ok } from '../result';
import type { ContentBlock, PlannedSizes, Result } from '../types';
import { RecordGraph } from './chain';
import { readForward } from './jsonl';
import { isSubagentTranscript, subagentParent } from './paths';
import { closePendingCalls } from './pendingCalls';
import { CONTEXT_LENS_WRITER, contentBlocks, messageOf, str, toolResultIds, toolUseIds, uuidOf, type LocatedRecord, type RawRecord } from './records';

/** Envelope fields every chain record carries; copied from the source so the fork looks native. */
const ENVELOPE_FIELDS = ['userType', 'entrypoint', 'cwd', 'version', 'gitBranch', 'slug'] as const;

export interface ForkRequest {
  sourcePath: string;
  /** Read the source only up to this offset: the read the plan was made from (`LiveContext.readEnd`). */
  sourceEnd?: number;
  /** Summary text (without the preamble). */
  summary: string;
  /** uuids of source records to keep verbatim, in order (e.g. `LiveContext.entries[i].uuids`). */
  preserveUuids: readonly string[];
  /**
   * New `message.content` for some preserved records (by source uuid): compacted tool results keep
   * their record but not their full text. The tool_use/tool_result ids must stay the same.
   */
  replaceContent?: Readonly<Record<string, ContentBlock[] | string>>;
  /** Focus instructions the compaction followed (stored as `compactMetadata.userContext`). */
  focus?: string | null;
  preTokens: number | null;
  postTokens: number | null;
  /** What the compaction measured of what it kept: the fork reads back with it until Claude Code answers. */
  planned?: PlannedSizes;
  /** The source's title: the fork's own (a `custom-title` record) and the one it names its source by. */
  title?: string;
  /** Injected clock and id source, for reproducible tests. */
  now?: () => Date;
  newUuid?: () => string;
}

export interface ForkResult {
  sessionId: string;
  path: string;
  resumeCommand: string;
  /** What the fork had to do beyond the plan (calls closed that had no result yet). */
  notes: string[];
}

export async function writeFork(request: ForkRequest): Promise<Result<ForkResult>> {
  const newUuid = request.newUuid ?? randomUUID;
  let records: LocatedRecord[];
  try {
    records = (await readForward(request.sourcePath, request.sourceEnd === undefined ? {} : { end: request.sourceEnd })).records;
  } catch (error) {
    return failFromError(error, request.sourcePath);
  }
  const graph = new RecordGraph(request.sourcePath);
  for (const located of records) graph.add(located);
  // A subagent's transcript holds only sidechain records: its conversation forks into a main session.
  const leaf = graph.liveLeaf(false) ?? graph.liveLeaf(true);
  if (leaf === null) return fail('empty', 'The source session has no conversation to fork', request.sourcePath);
  const preserved: RawRecord[] = [];
  for (const uuid of request.preserveUuids) {
    const found = graph.get(uuid);
    if (found === undefined) return fail('invalid-input', `Record ${uuid} is not in the source session`, request.sourcePath);
    const content = request.replaceContent?.[uuid];
    const record = content === undefined ? found.record : withContent(found.record, content);
    if (record === null) return fail('invalid-input', `Replacement content for ${uuid} changes its tool ids`, request.sourcePath);
    preserved.push(record);
  }
  const stray = Object.keys(request.replaceContent ?? {}).find((uuid) => !request.preserveUuids.includes(uuid));
  if (stray !== undefined) return fail('invalid-input', `Replacement content for ${stray}, which is not preserved`, request.sourcePath);
  // A call still running when the source was read gets its result closed; one whose result exists but was not kept is refused.
  const closed = closePendingCalls(
    preserved,
    records.map((located) => located.record),
    ENVELOPE_FIELDS,
  );
  const split = splitPair(closed.records);
  if (split !== null) return fail('split-tool-pair', split, request.sourcePath);

  const sessionId = newUuid();
  const envelope = envelopeOf(leaf.record, sessionId);
  const clock = request.now ?? (() => new Date());
  const start = clock().getTime();
  let tick = 0;
  // Strictly increasing timestamps keep the preserved records the newest leaf for --resume.
  const stamp = (): string => new Date(start + tick++).toISOString();
  const boundaryUuid = newUuid();
  const summaryUuid = newUuid();
  const compactMetadata: Record<string, unknown> = { trigger: 'manual', preTokens: request.preTokens, postTokens: request.postTokens };
  if (request.focus) compactMetadata.userContext = request.focus;
  const kept = rechain(closed.records, summaryUuid, sessionId, newUuid, stamp);
  const lines: RawRecord[] = [
    {
      parentUuid: null,
      logicalParentUuid: uuidOf(leaf.record),
      ...envelope,
      type: 'system',
      subtype: 'compact_boundary',
      content: 'Conversation compacted',
      isMeta: false,
      timestamp: stamp(),
      uuid: boundaryUuid,
      level: 'info',
      compactMetadata,
      // Ours, not the agent's: readers label the compaction as Context Lens's, name the fork after its
      // source, and take `postTokens` as the count of everything written here, up to `lastUuid`.
      contextLens: {
        writer: CONTEXT_LENS_WRITER,
        sourceSessionId: sourceSessionId(request.sourcePath, leaf.record),
        sourcePath: request.sourcePath,
        ...(request.title !== undefined ? { sourceTitle: request.title } : {}),
        lastUuid: uuidOf(kept.at(-1) ?? {}) ?? summaryUuid,
        ...(request.planned !== undefined ? { planned: request.planned } : {}),
      },
    },
    {
      parentUuid: boundaryUuid,
      ...envelope,
      type: 'user',
      message: { role: 'user', content: `${SUMMARY_PREAMBLE}\n\n${request.summary}` },
      isVisibleInTranscriptOnly: true,
      isCompactSummary: true,
      uuid: summaryUuid,
      timestamp: stamp(),
    },
    ...kept,
  ];
  if (request.title !== undefined) lines.push({ type: 'custom-title', customTitle: request.title, sessionId });
  const path = join(projectDirOf(request.sourcePath), `${sessionId}.jsonl`);
  const written = await writeNewAtomically(path, `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`);
  if (!written.ok) return written;
  return ok({ sessionId, path, resumeCommand: `claude --resume ${sessionId}`, notes: closed.notes });
}

/**
 * Where `claude --resume` finds the fork: the project folder of the source, also for a subagent's
 * transcript (`<project>/<session>/subagents/agent-*.jsonl` since 2.1, beside the sessions before).
 */
function projectDirOf(sourcePath: string): string {
  return subagentParent(sourcePath) === undefined ? dirname(sourcePath) : dirname(dirname(dirname(sourcePath)));
}

/**
 * The session the fork names as its source, as the pickers list it: a subagent's records carry its
 * parent's `sessionId`, so its file name (`agent-<id>`) is what tells it apart from the parent.
 */
function sourceSessionId(sourcePath: string, leaf: RawRecord): string | null {
  return isSubagentTranscript(sourcePath) ? basename(sourcePath, '.jsonl') : str(leaf.sessionId);
}

/** A copy of `record` with new message content, or null when that would re-pair tool calls. */
function withContent(record: RawRecord, content: ContentBlock[] | string): RawRecord | null {
  const message = messageOf(record) ?? {};
  const before = contentBlocks(message);
  const after = contentBlocks({ content });
  const same = (ids: (blocks: readonly ContentBlock[]) => string[]): boolean => ids(before).join('\n') === ids(after).join('\n');
  if (!same(toolUseIds) || !same(toolResultIds)) return null;
  return { ...record, message: { ...message, content } };
}

/** A description of the first tool_use/tool_result pair the selection would split, or null. */
export function splitPair(records: readonly RawRecord[]): string | null {
  const uses = new Set<string>();
  const results = new Set<string>();
  for (const record of records) {
    const blocks = contentBlocks(messageOf(record));
    if (record.type === 'assistant') for (const id of toolUseIds(blocks)) uses.add(id);
    if (record.type === 'user') for (const id of toolResultIds(blocks)) results.add(id);
  }
  for (const id of uses) if (!results.has(id)) return `tool_use ${id} is preserved without its tool_result`;
  for (const id of results) if (!uses.has(id)) return `tool_result for ${id} is preserved without its tool_use`;
  return null;
}

function envelopeOf(record: RawRecord, sessionId: string): Record<string, unknown> {
  const envelope: Record<string, unknown> = { isSidechain: false };
  for (const field of ENVELOPE_FIELDS) if (record[field] !== undefined) envelope[field] = record[field];
  envelope.sessionId = sessionId;
  return envelope;
}

/** Fresh uuids, each record's parent the one before it, references to renamed records updated. */
function rechain(records: readonly RawRecord[], firstParent: string, sessionId: string, newUuid: () => string, stamp: () => string): RawRecord[] {
  const renamed = new Map<string, string>();
  let parent = firstParent;
  return records.map((source) => {
    const uuid = newUuid();
    const old = uuidOf(source);
    if (old !== null) renamed.set(old, uuid);
    const copy: RawRecord = { ...source, parentUuid: parent, uuid, sessionId, isSidechain: false, timestamp: stamp() };
    const assistant = str(source.sourceToolAssistantUUID);
    if (assistant !== null) copy.sourceToolAssistantUUID = renamed.get(assistant) ?? assistant;
    // A copied response's usage measured the context *before* compaction; left in place it would
    // be read as the fork's fill (ours and the agent's). Until the next call, the boundary's
    // postTokens is the count.
    const message = messageOf(source);
    if (message !== null && 'usage' in message) {
      const { usage: _measuredBeforeCompaction, ...rest } = message;
      copy.message = rest;
    }
    delete copy.logicalParentUuid;
    // A subagent's records become the fork's own conversation (main chain, no agent).
    delete copy.agentId;
    parent = uuid;
    return copy;
  });
}
