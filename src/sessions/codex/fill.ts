// Exact context fill from Codex's own usage counts (`token_count` events), plus an estimate of
// what was written after them. One rule fed three ways: the whole live history (live context),
// appended lines (follower), or the few newest lines found by reading backwards (`readCodexFill`,
// the gauge's fast path).
//
// A `token_count` follows the response it counts, but Codex writes the tool outputs of that
// response before it: the usage covers everything up to the model's last output item, and the
// input items after that item (tool outputs, a new prompt) are estimated. After a `compacted`
// record Codex writes a `token_count` with zero input whose `total_tokens` is its own estimate of
// the compacted history: until the next response, that is the fill.
import { charEstimateTokenizer } from '../../engine';
import { ok, withFile } from '../result';
import type { Diagnostic, FillSnapshot, Result } from '../types';
import { linesBackward } from '../common/tail';
import { numberLines } from '../common/lines';
import { usageBreakdownOf } from './calls';
import { RolloutParser } from './reader';
import {
  isModelOutput,
  itemRef,
  messageText,
  outputText,
  reasoningText,
  replacementHistory,
  responseItemOf,
  str,
  taskWindowOf,
  timestampOf,
  tokenCountOf,
  turnModelOf,
  type CodexUsage,
  type HistoryItem,
  type LocatedRollout,
} from './records';
import { codexAutoCompactTokens, DEFAULT_CODEX_WINDOW_TOKENS } from './window';

export interface CodexFillOptions {
  /** Context window override in tokens (the `window.overrideTokens` setting); 0 = as Codex reports it. */
  windowOverride?: number;
  /** Codex's `model_auto_compact_token_limit` when known (config.toml, see `readConfiguredAutoCompactLimit`). */
  autoCompactTokenLimit?: number | null;
}

/** Four characters a token, as the engine estimates before its exact count (cheap on every append). */
export function estimateItemTokens(item: HistoryItem): number {
  return charEstimateTokenizer.count(itemTextForEstimate(item));
}

function itemTextForEstimate(item: HistoryItem): string {
  if (item.type === 'message') return messageText(item);
  if (item.type === 'reasoning') return reasoningText(item);
  if (item.type === 'function_call') return `${str(item.name) ?? ''} ${str(item.arguments) ?? ''}`;
  if (item.type === 'custom_tool_call') return `${str(item.name) ?? ''} ${str(item.input) ?? ''}`;
  if (item.type === 'function_call_output' || item.type === 'custom_tool_call_output') return outputText(item);
  return JSON.stringify(item);
}

interface Point {
  ref: string | null;
  end: number;
}

interface UsagePoint extends Point {
  usage: CodexUsage;
  timestamp: string | null;
}

interface CompactionPoint extends Point {
  /** Codex's own estimate of the compacted history (the zero-input token_count after it). */
  postTokens: number | null;
  /** Our estimate of the replacement history, used until Codex's arrives. */
  estimate: number;
}

export class CodexFillTracker {
  private usage: UsagePoint | null = null;
  private compaction: CompactionPoint | null = null;
  private lastOutput: Point | null = null;
  private pending = 0;
  private sinceOutput = 0;
  private window: number | null = null;
  private model: string | null = null;

  /** Feeds one record in file order; returns true when the fill may have changed. */
  observe({ record, offset, end }: LocatedRollout): boolean {
    const model = turnModelOf(record);
    if (model !== null) {
      const changed = model !== this.model;
      this.model = model;
      return changed;
    }
    const taskWindow = taskWindowOf(record);
    if (taskWindow !== null) return this.setWindow(taskWindow);
    const count = tokenCountOf(record);
    if (count !== null) {
      const windowChanged = count.window !== null && this.setWindow(count.window);
      const last = count.last;
      if (last === null) return windowChanged;
      if (last.input > 0) {
        this.usage = { usage: last, timestamp: timestampOf(record), ref: this.lastOutput?.ref ?? null, end: this.lastOutput?.end ?? end };
        this.compaction = null;
        this.pending = this.sinceOutput;
        return true;
      }
      if (this.compaction !== null && this.compaction.postTokens === null && last.total > 0) {
        this.compaction.postTokens = last.total;
        return true;
      }
      return windowChanged;
    }
    if (record.type === 'compacted') {
      this.compaction = {
        ref: itemRef(offset),
        end,
        postTokens: null,
        estimate: replacementHistory(record).reduce((sum, item) => sum + estimateItemTokens(item), 0),
      };
      this.pending = 0;
      this.sinceOutput = 0;
      return true;
    }
    const item = responseItemOf(record);
    if (item === null) return false;
    const tokens = estimateItemTokens(item);
    this.pending += tokens;
    if (isModelOutput(item)) {
      this.lastOutput = { ref: itemRef(offset), end };
      this.sinceOutput = 0;
    } else this.sinceOutput += tokens;
    return tokens > 0;
  }

  private setWindow(tokens: number): boolean {
    if (tokens <= 0 || tokens === this.window) return false;
    this.window = tokens;
    return true;
  }

  snapshot(options: CodexFillOptions = {}): FillSnapshot {
    const reported = this.window ?? DEFAULT_CODEX_WINDOW_TOKENS;
    const override = options.windowOverride !== undefined && options.windowOverride > 0 ? options.windowOverride : null;
    const base = {
      windowTokens: override ?? reported,
      windowSource: override !== null ? ('override' as const) : this.window !== null ? ('model' as const) : ('default' as const),
      agentAutoCompactTokens: codexAutoCompactTokens(reported, options.autoCompactTokenLimit),
      model: this.model,
    };
    const { usage, compaction } = this;
    if (compaction !== null || usage === null) {
      return {
        ...base,
        usedTokens: compaction?.postTokens ?? 0,
        source: 'estimate',
        timestamp: usage?.timestamp ?? null,
        outputTokensPending: 0,
        pendingTokens: this.pending + (compaction !== null && compaction.postTokens === null ? compaction.estimate : 0),
        usage: null,
        accountedThrough: { uuid: compaction?.ref ?? null, endOffset: compaction?.end ?? 0 },
        compactedSinceUsage: compaction !== null && usage !== null,
      };
    }
    const { input, output } = usage.usage;
    return {
      ...base,
      usedTokens: input + output,
      source: 'usage',
      timestamp: usage.timestamp,
      // The response's output is already in the count: Codex counts input plus output as the context.
      outputTokensPending: 0,
      pendingTokens: this.pending,
      usage: usageBreakdownOf(usage.usage),
      accountedThrough: { uuid: usage.ref, endOffset: usage.end },
      compactedSinceUsage: false,
    };
  }
}

export interface CodexFillRead {
  fill: FillSnapshot;
  diagnostics: Diagnostic[];
  /** Bytes parsed from the end to find the records: the tail-first cost. */
  bytesScanned: number;
  size: number;
  /** Start of an unfinished last line (or the size): where a follower continues. */
  resumeOffset: number;
  tracker: CodexFillTracker;
}

/** Past the records the fill needs, look this much further back for the model's name. */
const MODEL_LOOK_BACK_BYTES = 1024 * 1024;

/**
 * Fill of a rollout, reading backwards only as far as the newest usage (and the model output it
 * counts) or the newest compaction. The records found are replayed forwards through a
 * `CodexFillTracker`, so the rule stays in one place.
 */
export async function readCodexFill(path: string, options: CodexFillOptions = {}): Promise<Result<CodexFillRead>> {
  return withFile(path, async (handle) => {
    const size = (await handle.stat()).size;
    const parser = new RolloutParser(path);
    const newestFirst: LocatedRollout[] = [];
    let bytesScanned = 0;
    let resumeOffset = size;
    let state: 'anchor' | 'output' | 'model' = 'anchor';
    let modelUntil = -1;
    for await (const line of linesBackward(handle, size)) {
      if (state === 'model' && line.offset < modelUntil) break;
      bytesScanned = size - line.offset;
      if (!line.terminated) {
        // A write in progress: leave it to whoever reads next, do not call it an error.
        resumeOffset = line.offset;
        continue;
      }
      const located = parser.parse(line.bytes, 0, line.offset, line.end);
      if (located === null) continue;
      const { record } = located;
      if (state === 'model') {
        if (turnModelOf(record) === null) continue;
        newestFirst.push(located);
        break;
      }
      newestFirst.push(located);
      if (state === 'anchor' && (tokenCountOf(record)?.last?.input ?? 0) > 0) {
        state = 'output';
        continue;
      }
      const item = responseItemOf(record);
      const anchored = record.type === 'compacted' || (state === 'output' && item !== null && isModelOutput(item));
      if (!anchored) continue;
      // The model was named with (or after) the anchor: nothing more to look for.
      if (newestFirst.some((seen) => turnModelOf(seen.record) !== null)) break;
      state = 'model';
      modelUntil = line.offset - MODEL_LOOK_BACK_BYTES;
    }
    const tracker = new CodexFillTracker();
    for (let index = newestFirst.length - 1; index >= 0; index--) tracker.observe(newestFirst[index] as LocatedRollout);
    const diagnostics = parser.diagnostics();
    await numberLines(handle, diagnostics);
    return ok({ fill: tracker.snapshot(options), diagnostics, bytesScanned, size, resumeOffset, tracker });
  });
}
