// The agent's own compactions: each `compact_boundary` and the summary written right after it.
import type { CompactionEvent } from '../types';
import {
  contentBlocks,
  contextLensMark,
  isCompactBoundary,
  isSidechain,
  messageOf,
  num,
  obj,
  parentOf,
  str,
  usageOf,
  uuidOf,
  type LocatedRecord,
} from './records';

/**
 * Collects compactions from records in file order. A summary is matched to the boundary it names
 * as parent, or failing that to the latest boundary still without one.
 */
export class CompactionCollector {
  private readonly events: CompactionEvent[] = [];
  /** A manual compaction whose focus text is still to come (see `focusOf`). */
  private awaitingFocus: CompactionEvent | null = null;
  /**
   * A compaction whose boundary has no `postTokens` (Claude Code leaves it out of some): the first
   * call after it measured what the compacted context weighs, so its prompt is the after size.
   */
  private awaitingPost: CompactionEvent | null = null;

  constructor(private readonly sidechain = false) {}

  /** Whether the next response's usage is wanted (scan.ts parses usage lines only then). */
  get wantsUsage(): boolean {
    return this.awaitingPost !== null;
  }

  /** Returns the new event when `located` is a boundary, so followers can announce it. */
  observe({ record, line, offset }: LocatedRecord): CompactionEvent | null {
    if (isSidechain(record) !== this.sidechain) return null;
    if (isCompactBoundary(record)) {
      const metadata = obj(record.compactMetadata);
      const event: CompactionEvent = {
        uuid: uuidOf(record) ?? '',
        by: contextLensMark(record) === null ? 'agent' : 'context-lens',
        timestamp: str(record.timestamp),
        trigger: str(metadata?.trigger) ?? 'unknown',
        preTokens: num(metadata?.preTokens),
        postTokens: num(metadata?.postTokens),
        focus: str(metadata?.userContext),
        summary: null,
        offset,
      };
      if (line > 0) event.line = line;
      this.events.push(event);
      this.awaitingFocus = event.focus === null && event.trigger === 'manual' ? event : null;
      this.awaitingPost = event.postTokens === null ? event : null;
      return event;
    }
    if (this.awaitingPost !== null) {
      const usage = usageOf(record);
      if (usage !== null) {
        this.awaitingPost.postTokens = usage.inputTokens + usage.cacheCreationInputTokens + usage.cacheReadInputTokens;
        this.awaitingPost = null;
      }
    }
    if (this.awaitingFocus !== null && record.type === 'user') {
      const focus = focusOf(record);
      if (focus !== undefined) {
        this.awaitingFocus.focus = focus;
        this.awaitingFocus = null;
      }
    }
    if (record.type === 'user' && record.isCompactSummary === true) {
      const parent = parentOf(record);
      const event = this.events.find((candidate) => candidate.uuid === parent) ?? [...this.events].reverse().find((candidate) => candidate.summary === null);
      if (event) event.summary = summaryText(record);
    }
    return null;
  }

  all(): CompactionEvent[] {
    return [...this.events];
  }
}

function summaryText(record: Record<string, unknown>): string | null {
  const texts = contentBlocks(messageOf(record)).flatMap((block) => (block.type === 'text' && typeof block.text === 'string' ? [block.text] : []));
  return texts.length === 0 ? null : texts.join('\n');
}

const COMPACT_COMMAND = /<command-name>\/compact<\/command-name>[\s\S]*?<command-args>([\s\S]*?)<\/command-args>/;

/**
 * Claude Code (2.1.328) keeps `/compact <focus>`'s focus text out of the boundary's metadata; it
 * records the command itself in a user line written just after the summary. Undefined when
 * `record` is not that line; null when the command had no focus text.
 */
function focusOf(record: Record<string, unknown>): string | null | undefined {
  const message = messageOf(record);
  const text =
    typeof message?.content === 'string'
      ? message.content
      : contentBlocks(message)
          .map((block) => (typeof block.text === 'string' ? block.text : ''))
          .join('\n');
  const match = COMPACT_COMMAND.exec(text);
  if (!match) return undefined;
  const focus = (match[1] ?? '').trim();
  return focus === '' ? null : focus;
}
