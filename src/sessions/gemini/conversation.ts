// The conversation a chat file holds, rebuilt the way the Gemini CLI itself loads it
// (loadConversationRecord in 0.61): messages keyed by id in first-seen order, a later line for the
// same id replacing the message in place; `$set` merging metadata, and `$set.messages` replacing
// the whole history (what a compression and a resume write); `$rewindTo` dropping that message and
// everything after it (everything, when the id is unknown). Headers merge into the metadata, and a
// header carrying `messages` (the legacy whole-file shape) adds them.
import { asMessage, forkMarkOf, isHeader, rewindTarget, setPatch, str, type GeminiForkMark, type LocatedRecord, type MessageRecord } from './records';

/** A live message and where its current version was written. */
export interface PlacedMessage {
  message: MessageRecord;
  line: number;
  /** Offset of the line that wrote this version (for a `$set` snapshot: the `$set` line). */
  offset: number;
  end: number;
  /** Written inside a `$set.messages` snapshot or a header's `messages`, not on its own line. */
  inSnapshot: boolean;
}

/** What one record did to the conversation. */
export type Change = 'header' | 'message' | 'snapshot' | 'metadata' | 'rewind' | 'none';

export class Conversation {
  readonly messages = new Map<string, PlacedMessage>();
  /**
   * Ids in the order of `messages` and each one's place in it: a rewind finds its place at once and
   * cuts the tail, so a file of many rewinds costs what its lines cost, not their square.
   */
  private readonly order: string[] = [];
  private readonly place = new Map<string, number>();
  /** Each message's usage as its own line recorded it, by id: what a resume's snapshot leaves out. */
  private readonly recordedTokens = new Map<string, unknown>();
  /** No prototype: a `$set` or header naming `__proto__` adds a key, it cannot change what every key reads. */
  metadata: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  /** Mark of the first header that carries one: a fork Context Lens wrote. */
  forkOf: GeminiForkMark | null = null;
  /** The session id of the first header (later headers of a resume repeat it). */
  sessionId: string | null = null;

  observe({ record, line, offset, end }: LocatedRecord): Change {
    const target = rewindTarget(record);
    if (target !== null) {
      this.rewind(target);
      return 'rewind';
    }
    const message = asMessage(record);
    if (message !== null) {
      this.put(message, line, offset, end, false);
      return 'message';
    }
    const patch = setPatch(record);
    if (patch !== null) {
      const { messages, ...rest } = patch;
      Object.assign(this.metadata, rest);
      if (!Array.isArray(messages)) return 'metadata';
      // A resume writes the history again without each reply's `tokens` (0.61 drops them), after a
      // snapshot of the session context alone: a message it repeats keeps the usage its own line
      // recorded, so the fill stays exact across a resume.
      this.clear();
      this.addAll(messages, line, offset, end, this.recordedTokens);
      return 'snapshot';
    }
    if (isHeader(record)) {
      const { messages, ...rest } = record;
      Object.assign(this.metadata, rest);
      this.sessionId ??= str(record.sessionId);
      this.forkOf ??= forkMarkOf(record);
      if (Array.isArray(messages)) this.addAll(messages, line, offset, end);
      return Array.isArray(messages) ? 'snapshot' : 'header';
    }
    return 'none';
  }

  private addAll(messages: readonly unknown[], line: number, offset: number, end: number, recorded?: ReadonlyMap<string, unknown>): void {
    for (const value of messages) {
      const message = asMessage(value);
      if (message === null) continue;
      const tokens = message.tokens === undefined ? recorded?.get(message.id) : undefined;
      this.put(tokens === undefined ? message : { ...message, tokens }, line, offset, end, true);
    }
  }

  /** A new id goes last; a known one is replaced where it stands. */
  private put(message: MessageRecord, line: number, offset: number, end: number, inSnapshot: boolean): void {
    if (message.tokens !== undefined) this.recordedTokens.set(message.id, message.tokens);
    if (!this.place.has(message.id)) {
      this.place.set(message.id, this.order.length);
      this.order.push(message.id);
    }
    this.messages.set(message.id, { message, line, offset, end, inSnapshot });
  }

  private clear(): void {
    this.messages.clear();
    this.place.clear();
    this.order.length = 0;
  }

  /** Drops `id` and every later message (everything, when `id` is unknown): each message is dropped once, whatever the number of rewinds. */
  private rewind(id: string): void {
    const at = this.place.get(id);
    if (at === undefined) {
      this.clear();
      return;
    }
    for (const key of this.order.splice(at)) {
      this.messages.delete(key);
      this.place.delete(key);
    }
  }

  /** The live messages in order. */
  list(): PlacedMessage[] {
    return [...this.messages.values()];
  }

  /** `kind` of the session: `main`, or `subagent` for a chat a subagent wrote. */
  get kind(): string | null {
    return str(this.metadata.kind);
  }

  get summary(): string | null {
    return str(this.metadata.summary);
  }
}
