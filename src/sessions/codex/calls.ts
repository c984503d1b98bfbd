// Codex's per-call usage for the live context: a `token_count` follows each response and counts
// what the model was sent plus what it answered. The response is the model output items written
// since the previous count (reasoning, tool calls, the assistant's message); its tool outputs may be
// written before the count but belong to the next call's prompt.
import type { ContextEntry, LiveCall, UsageBreakdown } from '../types';
import { isModelOutput, itemRef, responseItemOf, timestampOf, tokenCountOf, turnModelOf, type CodexUsage, type LocatedRollout } from './records';

interface Counted {
  refs: string[];
  usage: UsageBreakdown;
  model: string | null;
  at: string | null;
}

/** Codex counts cached input inside `input_tokens`; the breakdown keeps the two apart. */
export function usageBreakdownOf(usage: CodexUsage): UsageBreakdown {
  return { inputTokens: usage.input - usage.cached, cacheCreationInputTokens: usage.cacheWrite, cacheReadInputTokens: usage.cached, outputTokens: usage.output };
}

export class CodexCallCollector {
  private counted: Counted[] = [];
  private outputs: string[] = [];
  private model: string | null = null;

  observe({ record, offset }: LocatedRollout): void {
    this.model = turnModelOf(record) ?? this.model;
    if (record.type === 'compacted') {
      // Calls before a compaction measured a history that no longer exists.
      this.counted = [];
      this.outputs = [];
      return;
    }
    const item = responseItemOf(record);
    if (item !== null) {
      if (isModelOutput(item)) this.outputs.push(itemRef(offset));
      return;
    }
    const last = tokenCountOf(record)?.last;
    // A count with no input is Codex's estimate of a compacted history (or a repeat): no call.
    if (!last || last.input <= 0 || this.outputs.length === 0) return;
    this.counted.push({ refs: this.outputs, usage: usageBreakdownOf(last), model: this.model, at: timestampOf(record) });
    this.outputs = [];
  }

  /** The calls as message ranges of the live context built from the same records. */
  calls(entries: readonly ContextEntry[]): LiveCall[] {
    const messageOf = new Map<string, number>();
    for (const entry of entries) for (const ref of entry.uuids) messageOf.set(ref, entry.messageIndex);
    return this.counted.flatMap(({ refs, usage, model, at }) => {
      const indexes = refs.flatMap((ref) => (messageOf.has(ref) ? [messageOf.get(ref) as number] : []));
      if (indexes.length === 0) return [];
      return [{ from: Math.min(...indexes), to: Math.max(...indexes), usage, model, at }];
    });
  }
}
