// Usage per model call, for the panel's timeline: one point per answer with counts, keyed by the
// message's ref (the live context's entry ref). The session is read whole on each update (Cline
// rewrites its files whole); `from` means nothing here.
import type { UsagePoint, UsageReader } from '../port';
import { readTranscript } from './records';

export class ClineUsageLog implements UsageReader {
  private points = new Map<string, UsagePoint>();

  constructor(readonly path: string) {}

  async update(): Promise<void> {
    const read = await readTranscript(this.path);
    if (!read.ok) return;
    const points = new Map<string, UsagePoint>();
    for (const message of read.value.messages) {
      if (message.usage === null || message.usage.prompt === 0) continue;
      points.set(message.ref, { at: message.at, usedTokens: message.usage.prompt + message.usage.output, messageId: message.ref });
    }
    this.points = points;
  }

  get(ref: string): UsagePoint | undefined {
    return this.points.get(ref);
  }
}
