// Usage per model call, for the panel's timeline: one point per assistant message of the session
// (one model call each), keyed by the live context's entry refs (message ids). The session's rows are read
// again on each update; `from` (a byte offset in the file-based agents) means nothing here.
import type { UsagePoint, UsageReader } from '../../port';
import { isAssistant, readMessages } from './history';
import { parseSessionPath } from './paths';
import { isoOf, promptOf, tokensOf } from './rows';
import { withStore } from '../opencodeStore';

export class OpencodeUsageLog implements UsageReader {
  private points = new Map<string, UsagePoint>();

  constructor(readonly path: string) {}

  async update(): Promise<void> {
    const parsed = parseSessionPath(this.path);
    if (parsed === null) return;
    const read = await withStore(parsed.db, (store) => readMessages(store, parsed.sessionId));
    if (!read.ok) return;
    const points = new Map<string, UsagePoint>();
    for (const message of read.value) {
      const tokens = isAssistant(message) ? tokensOf(message.data.tokens) : null;
      if (tokens === null || promptOf(tokens) === 0) continue;
      const point = { at: isoOf(message.timeCreated), usedTokens: promptOf(tokens) + tokens.output, messageId: message.id };
      points.set(message.id, point);
      for (const part of message.parts) if (part.data.type === 'tool') points.set(part.id, point);
    }
    this.points = points;
  }

  get(ref: string): UsagePoint | undefined {
    return this.points.get(ref);
  }
}
