// Usage per model call, for the panel's timeline. Codex writes a `token_count` after each response:
// what the model was sent plus what it answered. The point is keyed by the refs of that response's
// own output items (reasoning, tool calls, the assistant's message), which are the live context's
// entry refs, and carries one id per response, so the timeline draws one bar per call. Read
// incrementally, from where the live context starts, like Claude Code's.
import { scanLines, type ScanEnd } from '../common/lines';
import { UsageLogBase } from '../common/usageLogBase';
import type { UsagePoint } from '../port';
import { RolloutParser } from './reader';
import { isModelOutput, itemRef, responseItemOf, timestampOf, tokenCountOf, type LocatedRollout } from './records';

export class CodexUsageLog extends UsageLogBase {
  /** Output items since the last counted response: the response the next `token_count` counts. */
  private outputs: string[] = [];

  protected readFrom(offset: number): Promise<ScanEnd> {
    // Line numbers only number diagnostics, and this reader reports none.
    const parser = new RolloutParser(this.path);
    return scanLines(this.path, { start: offset, startLine: 1, keepPending: true }, (bytes, line, at, stop, unterminated) => {
      const located = parser.parse(bytes, line, at, stop, unterminated);
      if (located !== null) this.observe(located);
    });
  }

  protected override restart(from: number): void {
    super.restart(from);
    this.outputs = [];
  }

  private observe({ record, offset }: LocatedRollout): void {
    const item = responseItemOf(record);
    if (item !== null) {
      if (isModelOutput(item)) this.outputs.push(itemRef(offset));
      return;
    }
    if (record.type === 'compacted') {
      this.outputs = [];
      return;
    }
    const last = tokenCountOf(record)?.last;
    // A count with no input is Codex's estimate of a compacted history (or a repeat): no call.
    if (!last || last.input <= 0 || this.outputs.length === 0) return;
    const point: UsagePoint = { at: timestampOf(record), usedTokens: last.input + last.output, messageId: `response@${offset}` };
    for (const ref of this.outputs) this.points.set(ref, point);
    this.outputs = [];
  }
}
