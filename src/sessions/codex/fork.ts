// Applies a compaction to a Codex session by writing a new rollout that `codex resume <id>` (or
// `codex exec resume <id>`) continues: the source's session_meta with a new id, its last
// turn_context, and one `compacted` record whose replacement_history is the kept history items
// with our summary in place of what was removed. Codex sends the base instructions, then that
// history, then the next prompt (checked with 0.169.0, see shared/design/codex.md). Codex's own
// encrypted compaction items are always kept, verbatim: they are the memory of what came before,
// and only Codex can read them. A call the source has no output for yet is closed as Codex closes
// an interrupted call (pendingCalls.ts). The source is only read; the new file appears atomically.
import { mkdir } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { writeNewAtomically } from '../atomicWrite';
import { fail, failFromError, ok, withFile } from '../result';
import type { PlannedSizes, Result } from '../types';
import { SUMMARY_PREAMBLE } from '../common/forkTexts';
import { randomBytes } from '../common/crypto';
import { HistoryBuilder } from './liveContext';
import { codexHomeOf, rolloutPathFor } from './paths';
import { scanRollout } from './reader';
import { PendingCallCloser } from './pendingCalls';
import {
  callIdOf,
  CONTEXT_LENS_KEY,
  CONTEXT_LENS_WRITER,
  isInjectedUserText,
  isOpaqueCompaction,
  isToolCall,
  isToolOutput,
  messageText,
  payloadOf,
  str,
  tokenCountOf,
  type HistoryItem,
} from './records';

export interface CodexForkRequest {
  sourcePath: string;
  /** Read the source only up to this offset: the read the plan was made from (`LiveContext.readEnd`). */
  sourceEnd?: number;
  /** Summary text (without the preamble). */
  summary: string;
  /** Refs of the live history items to keep verbatim (`LiveContext.entries[i].uuids`). */
  preserveRefs: readonly string[];
  /** New output text for some preserved tool outputs (by ref): compacted results keep their call id. */
  replaceOutput?: Readonly<Record<string, string>>;
  focus?: string | null;
  preTokens: number | null;
  postTokens: number | null;
  /** What the compaction measured of what it kept: the fork reads back with it until Codex answers. */
  planned?: PlannedSizes;
  /** Title of the source session, remembered in the fork for pickers (`source_title`). */
  sourceTitle?: string;
  /** The fork's own title ("… (compacted)"), for pickers when it has no prompt of its own. */
  title?: string;
  /** Injected clock and id source, for reproducible tests. */
  now?: () => Date;
  newId?: (now: Date) => string;
}

export interface CodexForkResult {
  sessionId: string;
  path: string;
  resumeCommand: string;
  /** What the fork had to add that the request did not say (a pending call it closed). */
  notes: string[];
}

/** A version 7 UUID (time-ordered, as Codex names its sessions). */
export function uuidv7(now: Date, random: Buffer = randomBytes(10)): string {
  const bytes = Buffer.alloc(16);
  bytes.writeUIntBE(now.getTime(), 0, 6);
  random.copy(bytes, 6, 0, 10);
  bytes[6] = 0x70 | ((bytes[6] ?? 0) & 0x0f);
  bytes[8] = 0x80 | ((bytes[8] ?? 0) & 0x3f);
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

interface SourceRead {
  meta: Record<string, unknown> | null;
  turnContext: Record<string, unknown> | null;
  history: HistoryBuilder;
  window: number | null;
}

/** The rollout's records up to `end` (the plan's read) when given, else up to its current end. */
export async function readSource(path: string, end?: number): Promise<Result<SourceRead>> {
  return withFile(path, async (handle) => {
    const source: SourceRead = { meta: null, turnContext: null, history: new HistoryBuilder(), window: null };
    await scanRollout(handle, path, end === undefined ? {} : { end }, (located) => {
      const { record } = located;
      if (record.type === 'session_meta') source.meta ??= payloadOf(record);
      if (record.type === 'turn_context') source.turnContext = payloadOf(record);
      source.window = tokenCountOf(record)?.window ?? source.window;
      source.history.observe(located);
    });
    return ok(source);
  });
}

/** The harness items a history opens with (developer messages, environment context): the summary goes after them. */
function isLeadingHarness(item: HistoryItem): boolean {
  return item.type === 'message' && (item.role === 'developer' || (item.role === 'user' && isInjectedUserText(messageText(item))));
}

/** A description of the first call/output pair the selection would split, or null. */
export function splitCodexPair(items: readonly HistoryItem[]): string | null {
  const calls = new Set(items.filter(isToolCall).map(callIdOf));
  const outputs = new Set(items.filter(isToolOutput).map(callIdOf));
  for (const id of calls) if (!outputs.has(id)) return `tool call ${id} is preserved without its output`;
  for (const id of outputs) if (!calls.has(id)) return `tool output ${id} is preserved without its call`;
  return null;
}

export async function writeCodexFork(request: CodexForkRequest): Promise<Result<CodexForkResult>> {
  const read = await readSource(request.sourcePath, request.sourceEnd);
  if (!read.ok) return read;
  const { meta, turnContext, history, window } = read.value;
  if (meta === null) return fail('invalid-input', 'The source has no session_meta record: not a Codex rollout', request.sourcePath);
  if (history.items.length === 0) return fail('empty', 'The source session has no history to fork', request.sourcePath);
  const live = new Map(history.items.map((placed) => [placed.ref, placed.item]));
  const missing = request.preserveRefs.find((ref) => !live.has(ref));
  if (missing !== undefined) return fail('invalid-input', `Item ${missing} is not in the live history of the source`, request.sourcePath);
  // Codex's own compaction items are not the engine's to drop: it cannot read them.
  const keep = new Set([...request.preserveRefs, ...history.items.filter((placed) => isOpaqueCompaction(placed.item)).map((placed) => placed.ref)]);
  for (const ref of Object.keys(request.replaceOutput ?? {})) {
    if (!keep.has(ref)) return fail('invalid-input', `Replacement output for ${ref}, which is not preserved`, request.sourcePath);
    if (!isToolOutput(live.get(ref) as HistoryItem))
      return fail('invalid-input', `Replacement output for ${ref}, which is not a tool output`, request.sourcePath);
  }
  // One group per kept item: the item (its output replaced when asked), and an "aborted" output after a call still pending.
  const closer = new PendingCallCloser(history.items.map((placed) => placed.item));
  const groups = history.items
    .filter((placed) => keep.has(placed.ref))
    .map((placed) => {
      const text = request.replaceOutput?.[placed.ref];
      return closer.close(text === undefined ? placed.item : { ...placed.item, output: text });
    });
  const kept = groups.flat();
  const split = splitCodexPair(kept);
  if (split !== null) return fail('split-tool-pair', split, request.sourcePath);

  const summaryText = `${SUMMARY_PREAMBLE}\n\n${request.summary}`;
  const summaryItem: HistoryItem = { type: 'message', role: 'user', content: [{ type: 'input_text', text: summaryText }] };
  // The summary stands where the first removed item stood; with nothing removed, after the opening harness items.
  const firstDropped = history.items.findIndex((placed) => !keep.has(placed.ref));
  const at = firstDropped === -1 ? history.items.findIndex((placed) => !isLeadingHarness(placed.item)) : firstDropped;
  const before = (at === -1 ? history.items : history.items.slice(0, at)).filter((placed) => keep.has(placed.ref)).length;
  const replacement = [...groups.slice(0, before).flat(), summaryItem, ...groups.slice(before).flat()];

  const now = (request.now ?? (() => new Date()))();
  const sessionId = (request.newId ?? ((date: Date) => uuidv7(date)))(now);
  const timestamp = now.toISOString();
  const sourceId = str(meta.id) ?? str(meta.session_id);
  const mark = {
    writer: CONTEXT_LENS_WRITER,
    source_session_id: sourceId,
    source_path: request.sourcePath,
    ...(request.sourceTitle !== undefined ? { source_title: request.sourceTitle } : {}),
    ...(request.title !== undefined ? { title: request.title } : {}),
  };
  const records: Record<string, unknown>[] = [
    {
      type: 'session_meta',
      payload: { ...meta, id: sessionId, ...('session_id' in meta ? { session_id: sessionId } : {}), timestamp, [CONTEXT_LENS_KEY]: mark },
    },
    ...(turnContext === null ? [] : [{ type: 'turn_context', payload: turnContext }]),
    {
      type: 'compacted',
      payload: {
        message: summaryText,
        replacement_history: replacement,
        [CONTEXT_LENS_KEY]: {
          ...mark,
          summary: request.summary,
          focus: request.focus ?? null,
          pre_tokens: request.preTokens,
          post_tokens: request.postTokens,
          ...(request.planned !== undefined ? { planned: request.planned } : {}),
        },
      },
    },
  ];
  if (request.postTokens !== null && request.postTokens > 0) {
    // What Codex writes after its own compactions: no usage yet, the compacted history's estimate in total_tokens.
    const zero = { input_tokens: 0, cached_input_tokens: 0, output_tokens: 0, reasoning_output_tokens: 0 };
    records.push({
      type: 'event_msg',
      payload: {
        type: 'token_count',
        info: {
          total_token_usage: { ...zero, total_tokens: 0 },
          last_token_usage: { ...zero, total_tokens: request.postTokens },
          model_context_window: window,
        },
        rate_limits: null,
      },
    });
  }
  const lines = records.map((record, ordinal) => JSON.stringify({ timestamp, ordinal, ...record }));
  const codexHome = codexHomeOf(request.sourcePath);
  const path =
    codexHome === null ? join(dirname(request.sourcePath), basename(rolloutPathFor('.', sessionId, now))) : rolloutPathFor(codexHome, sessionId, now);
  try {
    await mkdir(dirname(path), { recursive: true });
  } catch (error) {
    return failFromError(error, dirname(path), 'create-folder');
  }
  const written = await writeNewAtomically(path, `${lines.join('\n')}\n`);
  if (!written.ok) return written;
  return ok({ sessionId, path, resumeCommand: `codex resume ${sessionId}`, notes: closer.notes });
}
