// Usage per API call, for the panel's timeline: every assistant record's usage, read incrementally
// (only the bytes appended since the last read). Claude Code writes one record per content block
// of a response, all with the same message id, so each point carries it for the caller to merge.
import { readForward } from './jsonl';
import type { UsagePoint, UsageReader } from '../port';
import { requestTokens, str, usageOf, uuidOf } from './records';

/** Usage of every assistant record of one transcript, by record uuid. Reads only appended bytes. */
export class UsageLog implements UsageReader {
  private readonly byUuid = new Map<string, UsagePoint>();
  private offset = 0;
  private line = 1;

  constructor(readonly path: string) {}

  async update(): Promise<void> {
    const read = await readForward(this.path, { start: this.offset, startLine: this.line, keepPending: true });
    if (read.size < this.offset) {
      // Truncated or replaced: start over.
      this.byUuid.clear();
      this.offset = 0;
      this.line = 1;
      return this.update();
    }
    for (const { record } of read.records) {
      const usage = usageOf(record);
      const uuid = uuidOf(record);
      if (usage === null || uuid === null) continue;
      const message = record.message as Record<string, unknown> | undefined;
      this.byUuid.set(uuid, { at: str(record.timestamp), usedTokens: requestTokens(usage), messageId: str(message?.id) });
    }
    this.offset = read.nextOffset;
    this.line = read.nextLine;
  }

  get(uuid: string): UsagePoint | undefined {
    return this.byUuid.get(uuid);
  }
}
