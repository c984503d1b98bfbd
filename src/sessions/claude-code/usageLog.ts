// Usage per API call, for the panel's timeline: every assistant record's usage from where the live
// context starts, read incrementally (only the bytes appended since the last read). The timeline
// asks only for the live chain's records, so a 100 MB session compacted near its end costs the
// read of its live megabyte, not of the whole file. Claude Code writes one record per content
// block of a response, all with the same message id, so each point carries it for the caller to merge.
import { forEachRecord } from './jsonl';
import type { UsagePoint, UsageReader } from '../port';
import { requestTokens, str, usageOf, uuidOf } from './records';

/** Lines without this cannot hold a usage: skipped unparsed. */
const USAGE_KEY = Buffer.from('"usage"');

/** Usage of the assistant records of one transcript from an offset on, by record uuid. Reads only appended bytes. */
export class UsageLog implements UsageReader {
  private readonly byUuid = new Map<string, UsagePoint>();
  /** Where the records read so far start, and where the next read starts. */
  private start = 0;
  private offset = 0;
  private read = false;

  constructor(readonly path: string) {}

  /** Reads on from the last read; from `from` instead when nothing was read yet or the live context now starts earlier. */
  async update(from = 0): Promise<void> {
    if (!this.read || from < this.start) this.restart(from);
    this.read = true;
    // Line numbers only number diagnostics, and this reader reports none.
    const end = await forEachRecord(this.path, { start: this.offset, startLine: 1, keepPending: true, wanted: (bytes) => bytes.includes(USAGE_KEY) }, ({ record }) => {
      const usage = usageOf(record);
      const uuid = uuidOf(record);
      if (usage === null || uuid === null) return;
      const message = record.message as Record<string, unknown> | undefined;
      this.byUuid.set(uuid, { at: str(record.timestamp), usedTokens: requestTokens(usage), messageId: str(message?.id) });
    });
    if (end.size < this.offset) {
      // Truncated or replaced: start over.
      this.read = false;
      return this.update(from);
    }
    this.offset = end.nextOffset;
  }

  get(uuid: string): UsagePoint | undefined {
    return this.byUuid.get(uuid);
  }

  private restart(from: number): void {
    this.byUuid.clear();
    this.start = from;
    this.offset = from;
  }
}
