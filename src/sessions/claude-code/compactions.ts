// The agent's own compactions: each `compact_boundary` and the summary written right after it.
import type { CompactionEvent } from '../types';
import { contentBlocks, isCompactBoundary, isSidechain, messageOf, num, obj, parentOf, str, uuidOf, type LocatedRecord } from './records';

/**
 * Collects compactions from records in file order. A summary is matched to the boundary it names
 * as parent, or failing that to the latest boundary still without one.
 */
export class CompactionCollector {
  private readonly events: CompactionEvent[] = [];

  constructor(private readonly sidechain = false) {}

  /** Returns the new event when `located` is a boundary, so followers can announce it. */
  observe({ record, line, offset }: LocatedRecord): CompactionEvent | null {
    if (isSidechain(record) !== this.sidechain) return null;
    if (isCompactBoundary(record)) {
      const metadata = obj(record.compactMetadata);
      const event: CompactionEvent = {
        uuid: uuidOf(record) ?? '',
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
      return event;
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
