// Usage per model call, for the panel's timeline. Codex writes a `token_count` after each response:
// what the model was sent plus what it answered. The point is keyed by the refs of that response's
// own output items (reasoning, tool calls, the assistant's message), which are the live context's
// entry refs, and carries one id per response, so the timeline draws one bar per call. Read
// incrementally, from where the live context starts, like Claude Code's.
import type { UsagePoint, UsageReader } from '../port';
import { scanLines } from '../common/lines';
import { RolloutParser } from './reader';
import { isModelOutput, itemRef, responseItemOf, timestampOf, tokenCountOf, type LocatedRollout } from './records';

export class CodexUsageLog implements UsageReader {
  private readonly byRef = new Map<string, UsagePoint>();
  /** Output items since the last counted response: the response the next `token_count` counts. */
  private outputs: string[] = [];
  /** Where the records read so far start, and where the next read starts. */
  private start = 0;
  private offset = 0;
  private read = false;

  constructor(readonly path: string) {}

  async update(from = 0): Promise<void> {
    if (!this.read || from < this.start) this.restart(from);
    this.read = true;
    // Line numbers only number diagnostics, and this reader reports none.
    const parser = new RolloutParser(this.path);
    const end = await scanLines(this.path, { start: this.offset, startLine: 1, keepPending: true }, (bytes, line, offset, stop, unterminated) => {
      const located = parser.parse(bytes, line, offset, stop, unterminated);
      if (located !== null) this.observe(located);
    });
    if (end.size < this.offset) {
      // Truncated or replaced: start over.
      this.read = false;
      return this.update(from);
    }
    this.offset = end.nextOffset;
  }

  get(ref: string): UsagePoint | undefined {
    return this.byRef.get(ref);
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
    for (const ref of this.outputs) this.byRef.set(ref, point);
    this.outputs = [];
  }

  private restart(from: number): void {
    this.byRef.clear();
    this.outputs = [];
    this.start = from;
    this.offset = from;
  }
}
