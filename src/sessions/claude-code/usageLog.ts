// Usage per API call, for the panel's timeline: every assistant record's usage from where the live
// context starts, read incrementally (only the bytes appended since the last read). The timeline
// asks only for the live chain's records, so a 100 MB session compacted near its end costs the
// read of its live megabyte, not of the whole file. Claude Code writes one record per content
// block of a response, all with the same message id, so each point carries it for the caller to merge.
import { UsageLogBase } from '../common/usageLogBase';
import type { ScanEnd } from '../common/lines';
import { forEachRecord } from './jsonl';
import { str, usageOf, uuidOf } from './records';
import { promptTokensOf } from '../common/usage';

/** Lines without this cannot hold a usage: skipped unparsed. */
const USAGE_KEY = Buffer.from('"usage"');

/** Usage of the assistant records of one transcript from an offset on, by record uuid. */
export class UsageLog extends UsageLogBase {
  protected readFrom(offset: number): Promise<ScanEnd> {
    // Line numbers only number diagnostics, and this reader reports none.
    return forEachRecord(this.path, { start: offset, startLine: 1, keepPending: true, wanted: (bytes) => bytes.includes(USAGE_KEY) }, ({ record }) => {
      const usage = usageOf(record);
      const uuid = uuidOf(record);
      if (usage === null || uuid === null) return;
      const message = record.message as Record<string, unknown> | undefined;
      this.points.set(uuid, { at: str(record.timestamp), usedTokens: promptTokensOf(usage), messageId: str(message?.id) });
    });
  }
}
