// Codex's per-call usage: a `token_count` follows each response and counts what the model was sent
// plus what it answered. The response is the model output items written since the previous count
// (reasoning, tool calls, the assistant's message); its tool outputs may be written before the count
// but belong to the next call's prompt. One rule, read two ways: the live context's calls
// (`CodexCallCollector`) and the timeline's points (usageLog.ts).
import type { ContextEntry, LiveCall, UsageBreakdown } from '../types';
import { eventTypeOf, isModelOutput, itemRef, responseItemOf, timestampOf, tokenCountOf, turnModelOf, type CodexUsage, type LocatedRollout } from './records';

/**
 * Codex counts cached input, and the input written to its cache, inside `input_tokens`; the
 * breakdown keeps the three apart, so they add up to `input_tokens` again.
 */
export function usageBreakdownOf({ input, cached, cacheWrite, output }: CodexUsage): UsageBreakdown {
  const written = Math.min(cacheWrite, input - cached);
  return { inputTokens: input - cached - written, cacheCreationInputTokens: written, cacheReadInputTokens: cached, outputTokens: output };
}

/** One counted response: the refs of its output items and the count that closed it. */
export interface CountedResponse {
  refs: string[];
  usage: CodexUsage;
}

/** Follows records in file order and says when a count closes a response. */
export class ResponseCounter {
  /** Output items since the last counted response: the response the next `token_count` counts. */
  private outputs: string[] = [];

  observe({ record, offset }: LocatedRollout): CountedResponse | null {
    const item = responseItemOf(record);
    if (item !== null) {
      if (isModelOutput(item)) this.outputs.push(itemRef(offset));
      return null;
    }
    // A compaction, or the person speaking (a new turn, or a message sent mid-turn): the outputs
    // no count closed so far were answered by a call Codex did not count, and are the next call's
    // prompt now, not its response (a reply the person interrupted with "keep going").
    if (record.type === 'compacted' || eventTypeOf(record) === 'user_message') {
      this.outputs = [];
      return null;
    }
    const last = tokenCountOf(record)?.last;
    // A count with no input is Codex's estimate of a compacted history (or a repeat): no call.
    if (!last || last.input <= 0 || this.outputs.length === 0) return null;
    const refs = this.outputs;
    this.outputs = [];
    return { refs, usage: last };
  }

  reset(): void {
    this.outputs = [];
  }
}

/** The live context's calls, with the model each ran on. */
export class CodexCallCollector {
  private counted: (CountedResponse & { model: string | null; at: string | null })[] = [];
  private readonly responses = new ResponseCounter();
  private model: string | null = null;

  observe(located: LocatedRollout): void {
    this.model = turnModelOf(located.record) ?? this.model;
    // Calls before a compaction measured a history that no longer exists.
    if (located.record.type === 'compacted') this.counted = [];
    const counted = this.responses.observe(located);
    if (counted !== null) this.counted.push({ ...counted, model: this.model, at: timestampOf(located.record) });
  }

  /** The calls as message ranges of the live context built from the same records. */
  calls(entries: readonly ContextEntry[]): LiveCall[] {
    const messageOf = new Map<string, number>();
    for (const entry of entries) for (const ref of entry.uuids) messageOf.set(ref, entry.messageIndex);
    return this.counted.flatMap(({ refs, usage, model, at }) => {
      const indexes = refs.flatMap((ref) => (messageOf.has(ref) ? [messageOf.get(ref) as number] : []));
      if (indexes.length === 0) return [];
      return [{ from: Math.min(...indexes), to: Math.max(...indexes), usage: usageBreakdownOf(usage), model, at }];
    });
  }
}
