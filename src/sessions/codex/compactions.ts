// Codex's own compactions (and ours, in forks Context Lens wrote): each `compacted` record, with
// the summary the model wrote for it, the fill before it and Codex's estimate of the fill after.
import type { CompactionEvent } from '../types';
import { contextLensMark, itemRef, messageText, num, obj, payloadOf, responseItemOf, str, timestampOf, tokenCountOf, type LocatedRollout } from './records';

/** What Context Lens's Apply stores in its compacted record besides Codex's own fields. */
interface OurCompaction {
  summary: string | null;
  focus: string | null;
  preTokens: number | null;
  postTokens: number | null;
}

export class CodexCompactionCollector {
  private readonly events: CompactionEvent[] = [];
  /** The model's last answer: a compaction's summary is the answer to Codex's compaction request. */
  private lastAnswer: string | null = null;
  private lastUsage: number | null = null;
  /** The newest compaction, until Codex's zero-input token_count gives its post-compaction estimate. */
  private awaitingPost: CompactionEvent | null = null;

  /** Returns the new event when `located` is a compaction, so followers can announce it. */
  observe({ record, line, offset }: LocatedRollout): CompactionEvent | null {
    const item = responseItemOf(record);
    if (item?.type === 'message' && item.role === 'assistant') this.lastAnswer = messageText(item);
    const count = tokenCountOf(record);
    if (count?.last) {
      if (count.last.input > 0) this.lastUsage = count.last.input + count.last.output;
      else if (this.awaitingPost !== null && count.last.total > 0) this.awaitingPost.postTokens ??= count.last.total;
      this.awaitingPost = null;
    }
    if (record.type !== 'compacted') return null;
    const payload = payloadOf(record) ?? {};
    const message = str(payload.message);
    const ours = contextLensMark(record) === null ? null : ourCompaction(payload);
    // The compaction request's own usage is the history it summarised (plus Codex's prompt).
    const requested = num(obj(obj(payload.latest_token_usage_record)?.usage)?.input_tokens);
    const event: CompactionEvent = {
      uuid: itemRef(offset),
      by: ours === null ? 'agent' : 'context-lens',
      timestamp: timestampOf(record),
      trigger: ours === null ? 'auto' : 'manual',
      preTokens: ours?.preTokens ?? requested ?? this.lastUsage,
      postTokens: ours?.postTokens ?? null,
      focus: ours?.focus ?? null,
      summary: ours?.summary ?? summaryOf(message, this.lastAnswer),
      offset,
    };
    if (line > 0) event.line = line;
    this.events.push(event);
    this.awaitingPost = event;
    this.lastAnswer = null;
    return event;
  }

  all(): CompactionEvent[] {
    return [...this.events];
  }
}

/**
 * The summary of a compaction: Codex's `message` is its own bridge text followed by the model's
 * answer to the compaction request, so the answer is the summary when the message ends with it.
 */
function summaryOf(message: string | null, answer: string | null): string | null {
  if (message === null) return answer;
  if (answer !== null && answer.trim() !== '' && message.endsWith(answer)) return answer;
  return message;
}

function ourCompaction(payload: Record<string, unknown>): OurCompaction {
  const mark = obj(payload.context_lens) ?? {};
  return { summary: str(mark.summary), focus: str(mark.focus), preTokens: num(mark.pre_tokens), postTokens: num(mark.post_tokens) };
}
