// Exact context fill from the provider's own usage counts, plus an estimate of what was written
// after the last of them. One rule, used three ways: fed the whole chain (live context), fed
// appended lines (follower), or fed the few newest lines found by reading backwards (`readFill`,
// the gauge's fast path).
import { toolResultText, charEstimateTokenizer } from '../../engine';
import { ok, withFile } from '../result';
import type { ContentBlock, Diagnostic, FillSnapshot, Result, UsageBreakdown } from '../types';
import { numberLines } from '../common/lines';
import { RecordParser } from './jsonl';
import { modelContent } from './messages';
import {
  contextLensMark,
  isChainRecord,
  isCompactBoundary,
  isSidechain,
  messageOf,
  num,
  obj,
  str,
  usageOf,
  uuidOf,
  type LocatedRecord,
  type RawRecord,
} from './records';
import { linesBackward, MAX_TAIL_LINE_BYTES } from '../common/tail';
import { agentAutoCompactTokens, percentOverrideFromEnv, resolveWindow } from './window';
import { promptTokensOf } from '../common/usage';

export interface FillOptions {
  /** Context window override in tokens (the `window.overrideTokens` setting); 0 = from the model. */
  windowOverride?: number;
  /** The model's max output tokens, if known (Claude Code reserves min(this, 20000)). */
  maxOutputTokens?: number;
  /** Environment to read `CLAUDE_AUTOCOMPACT_PCT_OVERRIDE` from; defaults to `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
  /** The file is a subagent transcript: its records are all sidechain records. */
  sidechain?: boolean;
}

interface UsagePoint {
  usage: UsageBreakdown;
  uuid: string | null;
  timestamp: string | null;
  end: number;
}

/** One streamed line's usage that counts for the live context. */
export interface CountedReading {
  usage: UsageBreakdown;
  model: string | null;
  at: string | null;
}

interface BoundaryPoint {
  uuid: string | null;
  postTokens: number | null;
  end: number;
  /**
   * A fork Context Lens wrote counts everything it wrote in `postTokens`, up to this record; until
   * it is met, records are part of that count, not new.
   */
  coversThrough: string | null;
}

/**
 * Follows records in file order and keeps what the fill needs: the last completed response's
 * usage, whether the conversation moved on after it (then its output is in the context too), a
 * compaction that happened after it (then the usage is stale), and the size of what was written
 * after whichever of the two counts.
 */
export class FillTracker {
  private last: UsagePoint | null = null;
  private followed = false;
  private boundary: BoundaryPoint | null = null;
  private pending = 0;
  private betas: string[] = [];
  /** Model of the newest response seen, also when its usage no longer counts. */
  private model: string | null = null;
  /** Every reading that counts for the live context, by record uuid (one per streamed line). */
  private readonly counted = new Map<string, CountedReading>();

  constructor(private readonly sidechain = false) {}

  /** Feeds one record; returns true when the fill may have changed. */
  observe({ record, end }: LocatedRecord): boolean {
    if (record.type === 'api-request') return this.observeRequest(record);
    if (!isChainRecord(record) || isSidechain(record) !== this.sidechain) return false;
    if (isCompactBoundary(record)) {
      const postTokens = num(obj(record.compactMetadata)?.postTokens);
      const coversThrough = postTokens === null ? null : (contextLensMark(record)?.lastUuid ?? null);
      this.boundary = { uuid: uuidOf(record), postTokens, end, coversThrough };
      this.pending = 0;
      // Calls before a compaction measured a context that no longer exists.
      this.counted.clear();
      return true;
    }
    const boundary = this.boundary;
    if (boundary?.coversThrough != null) {
      // Written with the fork: counted. The last of them moves the accounted point past the fork.
      if (uuidOf(record) === boundary.coversThrough) this.boundary = { ...boundary, uuid: uuidOf(record), end, coversThrough: null };
      return false;
    }
    const usage = usageOf(record);
    if (usage !== null) this.model = str(messageOf(record)?.model) ?? this.model;
    // Records a partial compaction preserved sit before its boundary; their usage is history.
    if (usage !== null && (this.boundary === null || end > this.boundary.end)) {
      // Lines of one streamed response share message.id; the newest carries the final output count.
      this.last = { usage, uuid: uuidOf(record), timestamp: str(record.timestamp), end };
      if (this.last.uuid !== null) this.counted.set(this.last.uuid, { usage, model: str(messageOf(record)?.model), at: this.last.timestamp });
      this.followed = false;
      this.boundary = null;
      this.pending = 0;
      return true;
    }
    const added = this.unaccounted(record, end);
    this.pending += added;
    if (record.type === 'user' && this.last !== null && !this.followed) {
      this.followed = true;
      return true;
    }
    return added > 0;
  }

  /** Estimated tokens a record adds to the next request when nothing counted so far includes it. */
  private unaccounted(record: RawRecord, end: number): number {
    // Records a partial compaction preserved sit before its boundary: its count includes them.
    if (end <= (this.boundary?.end ?? this.last?.end ?? 0)) return 0;
    if (record.isCompactSummary === true && this.boundary?.postTokens != null) return 0;
    return estimateTokens(modelContent(record));
  }

  /** The reading of a record whose usage counts for the live context (see `observe`), if any. */
  readingOf(uuid: string): CountedReading | undefined {
    return this.counted.get(uuid);
  }

  private observeRequest(record: Record<string, unknown>): boolean {
    const betas = obj(record.params)?.betas;
    if (!Array.isArray(betas)) return false;
    this.betas = betas.filter((beta): beta is string => typeof beta === 'string');
    return true;
  }

  snapshot(options: FillOptions = {}): FillSnapshot {
    const last = this.last;
    const requested = last === null ? 0 : promptTokensOf(last.usage);
    const window = resolveWindow({ model: this.model, overrideTokens: options.windowOverride, betas: this.betas, observedTokens: requested });
    const autoCompact = agentAutoCompactTokens(window.tokens, {
      maxOutputTokens: options.maxOutputTokens,
      percentOverride: percentOverrideFromEnv(options.env ?? process.env),
    });
    const base = {
      windowTokens: window.tokens,
      windowSource: window.source,
      agentAutoCompactTokens: autoCompact,
      model: this.model,
      timestamp: last?.timestamp ?? null,
    };
    if (this.boundary !== null || last === null) {
      // Nothing counted covers the live context: a compaction replaced it, or no response yet.
      const boundary = this.boundary;
      return {
        ...base,
        usedTokens: boundary?.postTokens ?? 0,
        source: 'estimate',
        outputTokensPending: 0,
        pendingTokens: this.pending,
        usage: null,
        accountedThrough: { uuid: boundary?.uuid ?? null, endOffset: boundary?.end ?? 0 },
        compactedSinceUsage: boundary !== null && last !== null,
      };
    }
    const output = last.usage.outputTokens;
    return {
      ...base,
      usedTokens: requested + (this.followed ? output : 0),
      source: 'usage',
      outputTokensPending: this.followed ? 0 : output,
      pendingTokens: this.pending,
      usage: last.usage,
      accountedThrough: { uuid: last.uuid, endOffset: last.end },
      compactedSinceUsage: false,
    };
  }
}

/**
 * Four characters a token, as the engine estimates before its exact count: this runs on every
 * append the follower reads, where a BPE pass over a large tool result would hold up the gauge.
 * Images and documents count as placeholders, as in the engine.
 */
function estimateTokens(blocks: readonly ContentBlock[]): number {
  let tokens = 0;
  for (const block of blocks) {
    const text = block.type === 'tool_result' ? toolResultText(block.content) : typeof block.text === 'string' ? block.text : `[${block.type}]`;
    tokens += charEstimateTokenizer.count(text);
  }
  return tokens;
}

const REQUEST_PREFIX = Buffer.from('{"type":"api-request",');
/** How far before the response its request record may sit (its message blobs come in between). */
const REQUEST_LOOK_BACK_BYTES = 512 * 1024;

export interface FillRead {
  fill: FillSnapshot;
  diagnostics: Diagnostic[];
  /** Bytes parsed from the end to find the records: the tail-first cost. */
  bytesScanned: number;
  size: number;
  /** Start of an unfinished last line (or the size): where a follower continues. */
  resumeOffset: number;
  tracker: FillTracker;
}

/**
 * Fill of a transcript, reading backwards only as far as the newest usage record. The records
 * found on the way are replayed forwards through a `FillTracker`, so the rule stays in one place.
 */
export async function readFill(path: string, options: FillOptions = {}): Promise<Result<FillRead>> {
  return withFile(path, async (handle) => {
    const size = (await handle.stat()).size;
    const parser = new RecordParser(path);
    const tracker = new FillTracker(options.sidechain ?? false);
    const newestFirst: LocatedRecord[] = [];
    let bytesScanned = 0;
    let resumeOffset = size;
    // Once the newest usage is found, look a little further back for the request that produced it
    // (`requestRef`, written just before the response): its betas tell a 1M window.
    let requestRef: string | null = null;
    let lookBackUntil = -1;
    for await (const line of linesBackward(handle, size)) {
      if (requestRef !== null) {
        if (line.offset < lookBackUntil) break;
        if (!line.bytes.subarray(0, REQUEST_PREFIX.length).equals(REQUEST_PREFIX) || line.bytes.indexOf(requestRef) === -1) continue;
        const request = parser.parse(line.bytes, 0, line.offset, line.end);
        if (request === null || request.record.id !== requestRef) continue;
        newestFirst.push(request);
        break;
      }
      bytesScanned = size - line.offset;
      if (!line.terminated) {
        // A write in progress: leave it to whoever reads next, do not call it an error.
        resumeOffset = line.offset;
        continue;
      }
      if (line.oversized) {
        parser.add('warning', 'oversized-line', `Line is over ${MAX_TAIL_LINE_BYTES} bytes; skipped`, 0, line.offset);
        continue;
      }
      const located = parser.parse(line.bytes, 0, line.offset, line.end);
      if (located === null) continue;
      newestFirst.push(located);
      if (usageOf(located.record) !== null && isSidechain(located.record) === (options.sidechain ?? false)) {
        requestRef = str(located.record.requestRef);
        if (requestRef === null) break;
        lookBackUntil = line.offset - REQUEST_LOOK_BACK_BYTES;
      }
    }
    for (let index = newestFirst.length - 1; index >= 0; index--) tracker.observe(newestFirst[index] as LocatedRecord);
    const diagnostics = parser.diagnostics();
    await numberLines(handle, diagnostics);
    return ok({ fill: tracker.snapshot(options), diagnostics, bytesScanned, size, resumeOffset, tracker });
  });
}
