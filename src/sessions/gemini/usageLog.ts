// Usage per model call, for the panel's timeline. Each gemini message carries the usage of the call
// that produced it; the point is keyed by the message id (the live context's entry ref for it) and
// is the whole prompt that call sent. A message written again (same id) or inside a history snapshot
// keeps its id, so it names the same point. Read incrementally, like every agent's (usageLogBase.ts).
import type { ScanEnd } from '../common/lines';
import { UsageLogBase } from '../common/usageLogBase';
import { openRegular } from '../result';
import { scanChat } from './reader';
import { asMessage, obj, tokensOf, type ChatRecord } from './records';

/** The messages a record writes: itself, or those of a history snapshot or a legacy file. */
export function messagesIn(record: ChatRecord): unknown[] {
  if (typeof record.id === 'string') return [record];
  const snapshot = obj(record.$set)?.messages ?? record.messages;
  return Array.isArray(snapshot) ? snapshot : [];
}

export class GeminiUsageLog extends UsageLogBase {
  protected async readFrom(offset: number): Promise<ScanEnd> {
    const handle = await openRegular(this.path);
    try {
      return await scanChat(handle, this.path, { start: offset, startLine: 1, keepPending: true }, ({ record }) => {
        for (const value of messagesIn(record)) {
          const message = asMessage(value);
          const tokens = message === null ? null : tokensOf(message);
          if (message === null || tokens === null) continue;
          this.points.set(message.id, {
            at: typeof message.timestamp === 'string' ? message.timestamp : null,
            usedTokens: tokens.input,
            messageId: `call@${message.id}`,
          });
        }
      });
    } finally {
      await handle.close();
    }
  }
}
