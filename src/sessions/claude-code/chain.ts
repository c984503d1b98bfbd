// The `parentUuid` tree of a transcript and the walk that finds the live conversation in it.
// Claude Code appends every branch (rewinds, resumes, retries) to the same file; the live one is
// the newest user/assistant leaf, walked back to the root or to the last compact boundary.
import type { Diagnostic } from '../types';
import { isChainRecord, isCompactBoundary, isSidechain, obj, parentOf, str, uuidOf, type LocatedRecord, type RawRecord } from './records';

export type WalkStop = 'root' | 'boundary' | 'missing-parent' | 'cycle';

export interface ChainWalk {
  /** Records from the start of the live context (a boundary or the root) to the leaf. */
  records: LocatedRecord[];
  stop: WalkStop;
  /** The parent uuid that was not found, when `stop` is `missing-parent`. */
  missingParent?: string;
}

export class RecordGraph {
  private readonly byUuid = new Map<string, LocatedRecord>();
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
   * Never loops: a uuid met twice ends the walk with a `cycle` diagnostic; a parent that is not in
   * the file ends it with `missing-parent`, keeping what was found.
   */
  walk(leaf: LocatedRecord): ChainWalk {
    const reversed: LocatedRecord[] = [];
    const seen = new Set<string>();
    let current = leaf;
    for (;;) {
      const uuid = uuidOf(current.record) as string;
      if (seen.has(uuid)) {
        this.note('error', 'cycle', `parentUuid chain loops back to ${uuid}; the walk stops there`, current);
        return { records: reversed.reverse(), stop: 'cycle' };
      }
      seen.add(uuid);
      reversed.push(current);
      if (isCompactBoundary(current.record)) return { records: reversed.reverse(), stop: 'boundary' };
      const parent = this.parent(current.record);
      if (parent === null) return { records: reversed.reverse(), stop: 'root' };
      const next = this.byUuid.get(parent);
      if (next === undefined) {
        this.note('warning', 'missing-parent', `Parent ${parent} of ${uuid} is not in the transcript; the live context starts at ${uuid}`, current);
        return { records: reversed.reverse(), stop: 'missing-parent', missingParent: parent };
      }
      current = next;
    }
  }

  private note(severity: Diagnostic['severity'], code: string, message: string, at: LocatedRecord): void {
    const diagnostic: Diagnostic = { severity, code, message, offset: at.offset };
    if (at.line > 0) diagnostic.line = at.line;
    if (this.path !== undefined) diagnostic.path = this.path;
    this.diagnosticsFound.push(diagnostic);
  }
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
