// The Gemini CLI's own compressions (and ours, in forks Context Lens wrote). The CLI leaves no
// marker record: a compression shows only as a history rewritten (`$set.messages`, or the lines a
// resume writes back) that holds a user message beginning `<state_snapshot>` — its summary — and the
// model's "Got it. Thanks for the additional context!". Each such summary, the first time its id is
// seen, is one compaction; the fill before it is the last count, the fill after it the next count.
// A fork opens with our summary (SUMMARY_PREAMBLE first) and its header's mark says the rest.
import type { CompactionEvent } from '../types';
import type { Change, Conversation } from './conversation';
import { isForkSummary, isSummary, str, textOf, tokensOf, type LocatedRecord, type MessageRecord } from './records';

export class GeminiCompactionCollector {
  private readonly events: CompactionEvent[] = [];
  private readonly seen = new Set<string>();
  /** Input of the newest call counted on its own line: the fill a compaction started from. */
  private lastCounted: number | null = null;
  /** The newest compaction, until the next count gives its post-compaction fill. */
  private awaitingPost: CompactionEvent | null = null;
  /** Offset of the record that brought in the newest compaction (null: none). */
  compactedAt: number | null = null;
  /** A call was counted before the newest compaction. */
  countedBefore = false;

  /**
   * Feeds one record after `conversation` applied it (`change`: what it did); returns the
   * compactions it brought, oldest first, so followers can announce them.
   */
  observe(located: LocatedRecord, change: Change, conversation: Conversation): CompactionEvent[] {
    if (change === 'message') {
      const message = conversation.messages.get(str(located.record.id) ?? '')?.message;
      const tokens = message ? tokensOf(message) : null;
      if (tokens !== null) {
        this.lastCounted = tokens.input;
        if (this.awaitingPost !== null) this.awaitingPost.postTokens ??= tokens.input;
        this.awaitingPost = null;
      }
      return message !== undefined && isSummary(message) ? this.found([message], located, conversation) : [];
    }
    if (change !== 'snapshot') return [];
    return this.found(
      conversation
        .list()
        .map((placed) => placed.message)
        .filter(isSummary),
      located,
      conversation,
    );
  }

  private found(summaries: readonly MessageRecord[], { line, offset }: LocatedRecord, conversation: Conversation): CompactionEvent[] {
    const added: CompactionEvent[] = [];
    for (const summary of summaries) {
      if (this.seen.has(summary.id)) continue;
      this.seen.add(summary.id);
      const mark = conversation.forkOf;
      const ours = mark !== null && isForkSummary(summary);
      const event: CompactionEvent = {
        uuid: summary.id,
        by: ours ? 'context-lens' : 'agent',
        timestamp: str(summary.timestamp),
        // The chat does not say whether /compress or the threshold started the CLI's own.
        trigger: ours ? 'manual' : 'unknown',
        preTokens: ours ? mark.preTokens : this.lastCounted,
        postTokens: ours ? mark.postTokens : null,
        focus: ours ? mark.focus : null,
        summary: (ours ? mark.summary : null) ?? textOf(summary.content).trim(),
        offset,
        ...(line > 0 ? { line } : {}),
      };
      this.events.push(event);
      added.push(event);
      this.countedBefore = this.lastCounted !== null;
      this.compactedAt = offset;
      this.awaitingPost = event;
    }
    return added;
  }

  all(): CompactionEvent[] {
    return [...this.events];
  }
}
