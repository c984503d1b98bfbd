// One chat file read in order: the conversation (last line for an id wins, `$set`, `$rewindTo`),
// its compressions, and the fill they give. The live context reads a file through it once; the
// follower keeps one and feeds it what is appended. Patches can change any message, so the whole
// live history is kept (it is what the model is sent, so it stays the size of a context window).
import { ok, withFile } from '../result';
import type { CompactionEvent, Diagnostic, FillSnapshot, Result } from '../types';
import { GeminiCompactionCollector } from './compactions';
import { Conversation } from './conversation';
import { fillOf, type GeminiFillOptions } from './fill';
import { scanChat } from './reader';
import type { LocatedRecord } from './records';

export interface Observed {
  /** The record changed the live history or its metadata. */
  changed: boolean;
  compactions: CompactionEvent[];
  /** The id of the message the record wrote, when it wrote one on its own line. */
  ref: string | null;
}

export class ChatState {
  readonly conversation = new Conversation();
  readonly compactions = new GeminiCompactionCollector();

  observe(located: LocatedRecord): Observed {
    const change = this.conversation.observe(located);
    const compactions = this.compactions.observe(located, change, this.conversation);
    const id = located.record.id;
    return { changed: change !== 'none', compactions, ref: change === 'message' && typeof id === 'string' ? id : null };
  }

  fill(options: GeminiFillOptions): FillSnapshot {
    return fillOf(this.conversation, this.compactions.compactedAt, this.compactions.countedBefore, options);
  }
}

export interface ChatRead {
  state: ChatState;
  diagnostics: Diagnostic[];
  /** Where a follower continues: the start of an unfinished last line, or the end. */
  resumeOffset: number;
  /** The next line's number. */
  nextLine: number;
  size: number;
  legacy: boolean;
}

/** Reads a whole chat file into a fresh state; an unfinished last line is left for a follower. */
export async function readChat(path: string, keepPending: boolean): Promise<Result<ChatRead>> {
  return withFile(path, async (handle) => {
    const state = new ChatState();
    const scan = await scanChat(handle, path, { keepPending }, (located) => void state.observe(located));
    return ok({ state, diagnostics: scan.diagnostics, resumeOffset: scan.nextOffset, nextLine: scan.nextLine, size: scan.size, legacy: scan.legacy });
  });
}
