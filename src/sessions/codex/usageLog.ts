// Usage per model call, for the panel's timeline. Codex writes a `token_count` after each response:
// what the model was sent plus what it answered. The point is keyed by the refs of that response's
// own output items (reasoning, tool calls, the assistant's message), which are the live context's
// entry refs, and carries one id per response, so the timeline draws one bar per call. Read
// incrementally, from where the live context starts, like Claude Code's.
import { scanLines, type ScanEnd } from '../common/lines';
import { UsageLogBase } from '../common/usageLogBase';
import type { UsagePoint } from '../port';
import { RolloutParser } from './reader';
import { ResponseCounter } from './calls';
import { timestampOf, type LocatedRollout } from './records';

export class CodexUsageLog extends UsageLogBase {
  private readonly responses = new ResponseCounter();

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
    this.responses.reset();
  }

  private observe(located: LocatedRollout): void {
    const counted = this.responses.observe(located);
    if (counted === null) return;
    const point: UsagePoint = {
      at: timestampOf(located.record),
      usedTokens: counted.usage.input + counted.usage.output,
      messageId: `response@${located.offset}`,
    };
    for (const ref of counted.refs) this.points.set(ref, point);
  }
}
