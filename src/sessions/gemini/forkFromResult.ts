// A compaction of a Gemini CLI session as the chat file that applies it (fork.ts). The source is
// read back as the CLI loads it (conversation.ts), and each live message is kept, trimmed or
// dropped as the fork plan (common/forkPlan.ts) says: its text with the message's text, each tool
// call with its call. A gemini message stores its calls together with their results
// (`toolCalls[].result`), so a call never leaves without its result; a compacted result is
// replaced there. The CLI also writes each result a second time as a user message and sends both
// on resume: the fork keeps the copy inside the call only. A call that never got a result is
// closed with an error result, as a resumed history must answer every call.
import { dirname } from 'node:path';
import { forkPlanOf, type ForkPlan } from '../common/forkPlan';
import type { ForkInput, WrittenFork } from '../port';
import { fail, ok, withFile } from '../result';
import type { Result } from '../types';
import { Conversation } from './conversation';
import { writeGeminiForkFile } from './fork';
import { scanChat } from './reader';
import { isHarnessOrCommand, obj, partsOf, str, type MessageRecord } from './records';

/** The result a call that was never answered gets in the fork. */
export const UNANSWERED_CALL = 'No result was recorded for this call before the session was compacted.';

type Part = Record<string, unknown>;

export interface ForkClock {
  now?: () => Date;
  newId?: () => string;
}

/** The chat's records up to `end` (the plan's read; a legacy chat is read whole), else to its current end. */
async function readSource(path: string, end?: number): Promise<Result<Conversation>> {
  return withFile(path, async (handle) => {
    const conversation = new Conversation();
    await scanChat(handle, path, end === undefined ? {} : { end }, (located) => conversation.observe(located));
    return ok(conversation);
  });
}

const callIdOfPart = (part: Part): string | null => str(obj(part.functionCall)?.id);
const responseIdOfPart = (part: Part): string | null => str(obj(part.functionResponse)?.id);

/** Every call id that has a result somewhere in the live history. */
function answeredIds(messages: readonly MessageRecord[]): Set<string> {
  const answered = new Set<string>();
  for (const message of messages) {
    for (const part of partsOf(message.content)) {
      const id = responseIdOfPart(part);
      if (id !== null) answered.add(id);
    }
    for (const call of Array.isArray(message.toolCalls) ? message.toolCalls : []) {
      const id = str(obj(call)?.id);
      if (id !== null && obj(call)?.result !== undefined && obj(call)?.result !== null) answered.add(id);
    }
  }
  return answered;
}

const responsePart = (id: string, name: string, response: Record<string, unknown>): Part => ({ functionResponse: { id, name, response } });

class MessageFilter {
  /** Calls whose result the fork carries inside their gemini message. */
  readonly carried = new Set<string>();
  readonly notes: string[] = [];
  split: string | null = null;
  /** Whether the message last filtered lost anything the compaction removed (where the summary goes). */
  lost = false;

  constructor(
    private readonly plan: ForkPlan,
    private readonly answered: ReadonlySet<string>,
  ) {}

  /** Whether a call survives; records a split when its call and its result were given different fates. */
  callKept(id: string): boolean {
    const call = this.plan.toolFate('tool_use', id)?.fate;
    const result = this.plan.toolFate('tool_result', id)?.fate;
    const kept = call !== 'dropped';
    this.lost ||= !kept;
    if (result !== undefined && (result !== 'dropped') !== kept)
      this.split ??= `tool call ${id} would be ${kept ? 'kept without' : 'dropped but keep'} its result`;
    return kept;
  }

  /** A gemini message without what was dropped (null when nothing is left), its calls answered. */
  model(message: MessageRecord, textKept: boolean): MessageRecord | null {
    this.lost = false;
    const stringContent = typeof message.content === 'string';
    const parts = partsOf(message.content).filter((part) => {
      const id = callIdOfPart(part);
      if (obj(part.functionCall) !== null) return id === null || this.callKept(id);
      this.lost ||= !textKept && typeof part.text === 'string' && part.text.trim() !== '';
      return textKept;
    });
    const calls = (Array.isArray(message.toolCalls) ? message.toolCalls : []).flatMap((value) => {
      const call = obj(value);
      const id = str(call?.id);
      if (call === null || id === null) return call === null ? [] : [call];
      if (!this.callKept(id)) return [];
      this.carried.add(id);
      const name = str(call.name) ?? 'unknown';
      const compacted = this.plan.compactedResult(id);
      if (compacted !== undefined) return [{ ...call, result: [responsePart(id, name, { output: compacted })], resultDisplay: compacted }];
      if (!this.answered.has(id)) {
        this.notes.push(`Closed call ${id} (${name}), which had no result, with an error result`);
        return [{ ...call, status: 'error', result: [responsePart(id, name, { error: UNANSWERED_CALL })], resultDisplay: UNANSWERED_CALL }];
      }
      return [call];
    });
    const thoughts = textKept && Array.isArray(message.thoughts) ? message.thoughts : [];
    const hasText = parts.some((part) => typeof part.text === 'string' && part.text.trim() !== '');
    if (!hasText && calls.length === 0 && !parts.some((part) => obj(part.functionCall) !== null) && thoughts.length === 0) return null;
    // The source's token counts describe its own calls, not the fork's; the next answer brings new ones.
    const { tokens: _tokens, ...rest } = message;
    const content = stringContent ? (textKept ? message.content : '') : parts;
    return { ...rest, content, thoughts, ...(Array.isArray(message.toolCalls) ? { toolCalls: calls } : {}) };
  }

  /** A user message without what was dropped and without results its call already carries (null when nothing is left). */
  user(message: MessageRecord, textKept: boolean): MessageRecord | null {
    this.lost = false;
    const parts = partsOf(message.content).flatMap((part) => {
      const response = obj(part.functionResponse);
      if (response === null) {
        if (typeof part.text === 'string' && isHarnessOrCommand(part.text)) return [];
        this.lost ||= !textKept;
        return textKept ? [part] : [];
      }
      const id = responseIdOfPart(part);
      if (id === null) return [part];
      if (this.carried.has(id) || !this.callKept(id)) return [];
      const compacted = this.plan.compactedResult(id);
      return [compacted === undefined ? part : responsePart(id, str(response.name) ?? 'unknown', { output: compacted })];
    });
    if (parts.length === 0) return null;
    return { ...message, content: parts };
  }
}

/** Writes the fork of `input` as a new chat beside the source; the source is only read. */
export async function writeGeminiFork(input: ForkInput, clock: ForkClock = {}): Promise<Result<WrittenFork>> {
  const planned = forkPlanOf(input);
  if (!planned.ok) return planned;
  const plan = planned.value;
  const path = input.live.session.path;
  // The bytes the plan was made from, not what the CLI appended since.
  const read = await readSource(path, input.live.readEnd);
  if (!read.ok) return read;
  const conversation = read.value;
  const sourceId = conversation.sessionId;
  const projectHash = str(conversation.metadata.projectHash);
  if (sourceId === null || projectHash === null) return fail('invalid-input', 'The source has no session header: not a Gemini CLI chat', path);
  const messages = conversation.list().map((placed) => placed.message);
  if (messages.length === 0) return fail('empty', 'The source session has no messages to fork', path);

  const messageIndex = new Map<string, number>();
  for (const entry of input.live.entries) for (const ref of entry.uuids) messageIndex.set(ref, entry.messageIndex);
  const filter = new MessageFilter(plan, answeredIds(messages));
  const kept: MessageRecord[] = [];
  let summaryAt: number | null = null;
  for (const message of messages) {
    const index = messageIndex.get(message.id);
    // Text the engine never saw (the CLI's own context, commands) is not the fork's to keep.
    const textKept = index === undefined ? false : plan.textKept(index);
    const out = message.type === 'gemini' ? filter.model(message, textKept) : message.type === 'user' ? filter.user(message, textKept) : null;
    // The summary stands where the first removed content stood.
    if (summaryAt === null && (message.type === 'gemini' || message.type === 'user') && filter.lost) summaryAt = kept.length;
    if (out !== null) kept.push(out);
  }
  if (filter.split !== null) return fail('split-tool-pair', filter.split, path);

  const written = await writeGeminiForkFile({
    chatsDir: dirname(path),
    sourceSessionId: sourceId,
    projectHash,
    sourceTitle: input.live.session.title,
    summary: plan.summary,
    kept,
    summaryAt: summaryAt ?? 0,
    meta: plan.meta,
    ...clock,
  });
  if (!written.ok) return written;
  return ok({ ...written.value, resumeCommand: `gemini -r ${written.value.sessionId}`, ...(filter.notes.length > 0 ? { notes: filter.notes } : {}) });
}
