// The `parentUuid` tree of a transcript and the walk that finds the live conversation in it.
// Claude Code appends every branch (rewinds, resumes, retries) to the same file; the live one is
// the newest user/assistant leaf, walked back to the root or to the last compact boundary.
import { lowerBound } from '../../base/search';
import type { Diagnostic } from '../types';
import { withoutUnpaired } from './unpaired';
import {
  contentBlocks,
  isChainRecord,
  isCompactBoundary,
  isSidechain,
  messageOf,
  obj,
  parentOf,
  str,
  toolResultIds,
  toolUseIds,
  uuidOf,
  type LocatedRecord,
  type RawRecord,
} from './records';

export type WalkStop = 'root' | 'boundary' | 'missing-parent' | 'cycle';

export interface ChainWalk {
  /** Records from the start of the live context (a boundary or the root) to the leaf. */
  records: LocatedRecord[];
  stop: WalkStop;
  /**
   * The first parent uuid that was not in the file: where the walk stopped (`missing-parent`), or the
   * first of the links it bridged (see `bridge`).
   */
  missingParent?: string;
  /** Missing parents the walk went past (see `bridge`). */
  bridged: number;
  /** Records joined from side branches: the tool results of parallel calls (see `joinParallel`). */
  joined: number;
}

export class RecordGraph {
  private readonly byUuid = new Map<string, LocatedRecord>();
  /** What `bridge` looks in, built on the first missing parent: most files never need it. */
  private bridges: Bridges | null = null;
  /** Parent links changed by partial compactions (uuid → effective parent). */
  private readonly relinked = new Map<string, string>();
  private readonly diagnosticsFound: Diagnostic[] = [];

  constructor(private readonly path?: string) {}

  /** Adds a chain record; other records are ignored. A repeated uuid replaces the earlier record. */
  add(located: LocatedRecord): void {
    if (!isChainRecord(located.record)) return;
    const uuid = uuidOf(located.record) as string;
    const earlier = this.byUuid.get(uuid);
    if (earlier) this.note('warning', 'duplicate-uuid', `uuid ${uuid} also appears at line ${earlier.line}; the later record is used`, located);
    this.byUuid.set(uuid, located);
    this.bridges = null;
  }

  /**
   * A partial compaction keeps part of the old chain verbatim and names it in the boundary's
   * `compactMetadata.preservedSegment` {headUuid, anchorUuid, tailUuid}. The records themselves
   * stay where they were; Claude Code splices them in when loading: the head now follows the anchor
   * (the summary) and whatever followed the anchor now follows the tail. Call after adding records.
   */
  relinkPreserved(boundary: RawRecord): void {
    const segment = obj(obj(boundary.compactMetadata)?.preservedSegment);
    const head = str(segment?.headUuid);
    const anchor = str(segment?.anchorUuid);
    const tail = str(segment?.tailUuid);
    if (head === null || anchor === null || tail === null || !this.byUuid.has(head) || !this.byUuid.has(tail)) return;
    for (const [uuid, located] of this.byUuid) if (uuid !== head && this.parent(located.record) === anchor) this.relinked.set(uuid, tail);
    this.relinked.set(head, anchor);
  }

  private parent(record: RawRecord): string | null {
    return this.relinked.get(uuidOf(record) as string) ?? parentOf(record);
  }

  get(uuid: string): LocatedRecord | undefined {
    return this.byUuid.get(uuid);
  }

  get size(): number {
    return this.byUuid.size;
  }

  diagnostics(): Diagnostic[] {
    return [...this.diagnosticsFound];
  }

  /**
   * The live leaf: among records nobody names as parent, each walked back to its nearest
   * user/assistant record (a trailing system or progress line does not end a conversation), the
   * newest by timestamp on the requested side (main conversation or sidechain). When there is no
   * leaf at all (every record is someone's parent: a pure cycle), the newest user/assistant record
   * stands in, so that the walk from it still shows what it can and reports the cycle.
   */
  liveLeaf(sidechain = false): LocatedRecord | null {
    const parents = new Set<string>();
    // Only children on the same side count: old transcripts hang subagent records off main ones.
    for (const { record } of this.byUuid.values()) {
      const parent = this.parent(record);
      if (parent !== null && isSidechain(record) === sidechain) parents.add(parent);
    }
    const leaves = [...this.byUuid].filter(([uuid]) => !parents.has(uuid)).map(([, terminal]) => this.nearestConversational(terminal));
    return newestConversational(leaves, sidechain) ?? newestConversational(this.byUuid.values(), sidechain);
  }

  private nearestConversational(start: LocatedRecord): LocatedRecord | null {
    const seen = new Set<string>();
    let current: LocatedRecord | undefined = start;
    while (current !== undefined) {
      if (isConversational(current.record)) return current;
      const uuid = uuidOf(current.record) as string;
      if (seen.has(uuid)) return null;
      seen.add(uuid);
      const parent = this.parent(current.record);
      current = parent === null ? undefined : this.byUuid.get(parent);
    }
    return null;
  }

  /**
   * Walks from `leaf` to the root, stopping at a compact boundary (where the live context begins).
   * Never loops: a uuid met twice ends the walk with a `cycle` diagnostic. A parent that is not in the
   * file is bridged (see `bridge`) with one info diagnostic for the walk; where nothing can stand in
   * for it, the walk ends there with `missing-parent`, keeping what was found.
   */
  walk(leaf: LocatedRecord): ChainWalk {
    const reversed: LocatedRecord[] = [];
    const seen = new Set<string>();
    // Parents bridged, nearest the leaf first, and the first record that named one.
    const missing: string[] = [];
    let firstBridged: LocatedRecord | null = null;
    const done = (stop: WalkStop): ChainWalk => {
      if (firstBridged !== null)
        this.note(
          'info',
          'missing-parent-bridged',
          `${missing.length} record${missing.length === 1 ? ' names a parent' : 's name parents'} not in the transcript (first: ${missing[0]}); the walk went on through the tool call each result answers, else the record before it in the file`,
          firstBridged,
        );
      const walk = this.joinParallel(reversed.reverse(), stop);
      if (firstBridged === null) return walk;
      // A bridge may pass calls whose results were never written (or the reverse): they cannot be sent again.
      const paired = withoutUnpaired(walk.records);
      if (paired.dropped > 0)
        this.note(
          'info',
          'unpaired-tool-dropped',
          `${paired.dropped} record${paired.dropped === 1 ? '' : 's'} holding tool calls whose results were never written, or results whose calls were not, left out of the live context`,
          firstBridged,
        );
      return { ...walk, records: paired.records, missingParent: missing[0] as string, bridged: missing.length };
    };
    let current = leaf;
    for (;;) {
      const uuid = uuidOf(current.record) as string;
      if (seen.has(uuid)) {
        this.note('error', 'cycle', `parentUuid chain loops back to ${uuid}; the walk stops there`, current);
        return done('cycle');
      }
      seen.add(uuid);
      reversed.push(current);
      if (isCompactBoundary(current.record)) return done('boundary');
      const parent = this.parent(current.record);
      if (parent === null) return done('root');
      const next = this.byUuid.get(parent) ?? this.bridge(current, seen);
      if (next === undefined) {
        // The file's first record naming a parent: a transcript kept from mid-conversation on, not damage.
        const excerpt = current.offset === 0;
        this.note(
          excerpt ? 'info' : 'warning',
          'missing-parent',
          `Parent ${parent} of ${uuid} is not in the transcript${excerpt ? ' (it starts mid-conversation)' : ''}; the live context starts at ${uuid}`,
          current,
        );
        return { ...done('missing-parent'), missingParent: parent };
      }
      if (!this.byUuid.has(parent)) {
        missing.push(parent);
        firstBridged ??= current;
      }
      current = next;
    }
  }

  /**
   * What stands in for the parent of `record` when that parent was never written (Claude Code 2.0's
   * subagent files name parents for their tool results that are not in them; a trailing
   * `turn_duration` line may name one too): its `logicalParentUuid`; for a tool result, the line
   * holding the tool call it answers; else the record before it in the file on the same side. Only
   * records not yet on the walk (`seen`), so a bridge never loops.
   */
  private bridge(record: LocatedRecord, seen: ReadonlySet<string>): LocatedRecord | undefined {
    const usable = (candidate: LocatedRecord | undefined): candidate is LocatedRecord =>
      candidate !== undefined && !seen.has(uuidOf(candidate.record) as string) && isSidechain(candidate.record) === isSidechain(record.record);
    const logical = this.byUuid.get(str(record.record.logicalParentUuid) ?? '');
    if (usable(logical)) return logical;
    const call = this.callAnswered(record.record);
    if (usable(call)) return call;
    this.bridges ??= bridgesOf(this.byUuid.values());
    const sameSide = this.bridges.bySide[isSidechain(record.record) ? 1 : 0];
    for (let index = firstAtOrAfter(sameSide, record.offset) - 1; index >= 0; index--) {
      const candidate = sameSide[index] as LocatedRecord;
      if (usable(candidate)) return candidate;
    }
    return undefined;
  }

  /** The assistant line holding the tool call a tool-result record answers (`sourceToolAssistantUUID`, else by id). */
  private callAnswered(record: RawRecord): LocatedRecord | undefined {
    if (record.type !== 'user') return undefined;
    const ids = toolResultIds(contentBlocks(messageOf(record)));
    if (ids.length === 0) return undefined;
    const source = this.byUuid.get(str(record.sourceToolAssistantUUID) ?? '');
    if (source !== undefined) return source;
    this.bridges ??= bridgesOf(this.byUuid.values());
    return this.bridges.callOwner.get(ids[0] as string);
  }

  /** The effective parent for joining: the recorded one, or for a tool result whose parent is missing, its call's line. */
  private joinParent(record: RawRecord): string | null {
    const parent = this.parent(record);
    if (parent === null || this.byUuid.has(parent)) return parent;
    const call = this.callAnswered(record);
    return call === undefined ? parent : (uuidOf(call.record) as string);
  }

  /**
   * Parallel tool calls make the chain a small tree. Claude Code writes one API response with several
   * tool_use blocks as one `assistant` line per block (same `message.id`, each the parent of the
   * next), and each `tool_result` line names *its own* tool_use line as parent. A walk from the
   * newest leaf therefore passes every line of the response but only the last result; the other
   * results hang off side branches. Claude Code sends them all (it joins a response's siblings when
   * it rebuilds the conversation), so we do the same: for every response on the walk, its lines that
   * the walk missed and the tool results answering its tool_use ids are joined, in file order, just
   * before the first user line that follows the response on the walk.
   */
  private joinParallel(path: LocatedRecord[], stop: WalkStop): ChainWalk {
    const onPath = new Set(path.map(({ record }) => uuidOf(record) as string));
    const responses = new Map<string, LocatedRecord[]>();
    for (const located of path) {
      const id = responseId(located.record);
      if (id !== null) responses.set(id, []);
    }
    if (responses.size === 0) return { records: path, stop, joined: 0, bridged: 0 };
    const side = isSidechain((path.at(-1) as LocatedRecord).record);
    const childrenOf = new Map<string, LocatedRecord[]>();
    for (const located of this.byUuid.values()) {
      if (isSidechain(located.record) !== side) continue;
      const id = responseId(located.record);
      if (id !== null && !onPath.has(uuidOf(located.record) as string)) responses.get(id)?.push(located);
      const parent = this.joinParent(located.record);
      if (parent === null) continue;
      const siblings = childrenOf.get(parent);
      if (siblings === undefined) childrenOf.set(parent, [located]);
      else siblings.push(located);
    }
    // Computed once, not per response: a walk of 100k records must stay linear.
    const answered = new Set(path.flatMap(({ record }) => (record.type === 'user' ? toolResultIds(contentBlocks(messageOf(record))) : [])));
    const pathLines = new Map<string, LocatedRecord[]>();
    for (const located of path) {
      const id = responseId(located.record);
      if (id !== null) pathLines.set(id, [...(pathLines.get(id) ?? []), located]);
    }
    // What each response still lacks: sibling lines, then the results of all its tool_use blocks.
    const extras = new Map<string, LocatedRecord[]>();
    for (const [id, missedLines] of responses) {
      const lines = [...(pathLines.get(id) ?? []), ...missedLines];
      const calls = new Set(lines.flatMap(({ record }) => toolUseIds(contentBlocks(messageOf(record)))));
      const results = lines
        .flatMap(({ record }) => childrenOf.get(uuidOf(record) as string) ?? [])
        .filter((child) => {
          if (onPath.has(uuidOf(child.record) as string) || child.record.type !== 'user') return false;
          const ids = toolResultIds(contentBlocks(messageOf(child.record)));
          return ids.length > 0 && ids.every((toolUseId) => calls.has(toolUseId) && !answered.has(toolUseId));
        });
      const joined = [...missedLines, ...results].sort((a, b) => a.offset - b.offset);
      if (joined.length > 0) extras.set(id, joined);
    }
    if (extras.size === 0) return { records: path, stop, joined: 0, bridged: 0 };
    const records: LocatedRecord[] = [];
    let open: string | null = null;
    const flush = (): void => {
      if (open !== null) records.push(...(extras.get(open) ?? []));
      open = null;
    };
    for (const located of path) {
      const id = responseId(located.record);
      if (id !== null && id !== open) flush();
      // Sibling assistant lines go with the response, results before the next user-side line.
      if (located.record.type !== 'assistant' && located.record.type !== 'progress') flush();
      records.push(located);
      if (id !== null) open = id;
    }
    flush();
    const unique = dedupeByUuid(records);
    return { records: unique, stop, joined: unique.length - path.length, bridged: 0 };
  }

  private note(severity: Diagnostic['severity'], code: string, message: string, at: LocatedRecord): void {
    const diagnostic: Diagnostic = { severity, code, message, offset: at.offset };
    if (at.line > 0) diagnostic.line = at.line;
    if (this.path !== undefined) diagnostic.path = this.path;
    this.diagnosticsFound.push(diagnostic);
  }
}

interface Bridges {
  /** Chain records in file order, main side [0] and sidechain [1]. */
  bySide: [LocatedRecord[], LocatedRecord[]];
  /** tool_use id → the assistant line that holds the call. */
  callOwner: Map<string, LocatedRecord>;
}

function bridgesOf(records: Iterable<LocatedRecord>): Bridges {
  const bridges: Bridges = { bySide: [[], []], callOwner: new Map() };
  for (const located of records) {
    bridges.bySide[isSidechain(located.record) ? 1 : 0].push(located);
    if (located.record.type === 'assistant') for (const id of toolUseIds(contentBlocks(messageOf(located.record)))) bridges.callOwner.set(id, located);
  }
  for (const side of bridges.bySide) side.sort((a, b) => a.offset - b.offset);
  return bridges;
}

/** Index of the first record at or after `offset` in records sorted by offset. */
function firstAtOrAfter(records: readonly LocatedRecord[], offset: number): number {
  return lowerBound(records, (record) => record.offset < offset);
}

/** `message.id` of an assistant line: the lines of one API response share it. */
function responseId(record: RawRecord): string | null {
  return record.type === 'assistant' ? str(messageOf(record)?.id) : null;
}

/** A record joined from a side branch may also sit on the walk further on; keep its first place. */
function dedupeByUuid(records: LocatedRecord[]): LocatedRecord[] {
  const seen = new Set<string>();
  return records.filter(({ record }) => {
    const uuid = uuidOf(record) as string;
    if (seen.has(uuid)) return false;
    seen.add(uuid);
    return true;
  });
}

function isConversational(record: RawRecord): boolean {
  return record.type === 'user' || record.type === 'assistant';
}

/** The newest user/assistant record on the given side, if any. */
function newestConversational(records: Iterable<LocatedRecord | null>, sidechain: boolean): LocatedRecord | null {
  let best: LocatedRecord | null = null;
  for (const candidate of records) {
    if (candidate === null || !isConversational(candidate.record) || isSidechain(candidate.record) !== sidechain) continue;
    if (best === null || newer(candidate, best)) best = candidate;
  }
  return best;
}

/** Newer by timestamp; unparsable or equal timestamps fall back to position in the file. */
function newer(a: LocatedRecord, b: LocatedRecord): boolean {
  const ta = Date.parse(str(a.record.timestamp) ?? '');
  const tb = Date.parse(str(b.record.timestamp) ?? '');
  if (Number.isFinite(ta) && Number.isFinite(tb) && ta !== tb) return ta > tb;
  if (Number.isFinite(ta) !== Number.isFinite(tb)) return Number.isFinite(ta);
  return a.offset > b.offset;
}
