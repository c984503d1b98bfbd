// The chat file that applies a compaction to a Gemini CLI session: a new session in the source's
// own chats folder, which `gemini -r <id>` (run in the session's working directory) resumes. Its
// header names a fresh session id and carries our mark; then our summary as a user message, an
// acknowledgement when the next kept message is not the model's (the history alternates, as after
// the CLI's own compression), and the kept messages in the CLI's record shape. Nothing else: the
// CLI adds its own session context on resume. The source is only read; the new file appears
// atomically.
//
// Short ids: the CLI's retention cleanup deletes an unresumable chat file *and every file whose name
// ends in the same 8 characters*, and each `gemini -r` started in a later minute than the file's
// name leaves exactly such a file: a stub named after the session id holding only a header and the
// session context. Had the fork's file name carried its session id's first 8 characters, the first
// cleanup after its first resume would delete it (checked with 0.61; the CLI's own resumed sessions
// go the same way). So the file name carries a short id of its own (the CLI finds a session by the
// id in its header, never by its file name), and neither short id is one another file there has.
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { writeNewAtomically } from '../atomicWrite';
import { SUMMARY_PREAMBLE } from '../common/forkTexts';
import { randomUUID } from '../common/crypto';
import { fail, ok } from '../result';
import type { PlannedSizes, Result } from '../types';
import { FORK_MARK_KEY, type MessageRecord } from './records';

/** What the model answers our summary with, so a kept prompt after it is not a second user turn in a row. */
export const SUMMARY_ACK = 'Understood. I will continue from this summary.';

/** The CLI's chat file names end in `-<8 characters of the session id>.jsonl` (or `.json`, older ones). */
const SHORT_ID = /-([a-zA-Z0-9]{8})\.jsonl?$/;
/** A random uuid colliding this often means something else is wrong. */
const NAME_ATTEMPTS = 32;

export interface GeminiForkFile {
  /** The source's chats folder: the fork lives beside it, in the same project. */
  chatsDir: string;
  sourceSessionId: string;
  projectHash: string;
  /** The source session's title (for pickers: "fork of …"). */
  sourceTitle: string | null;
  /** Summary text (without the preamble). */
  summary: string;
  /** Kept messages, in order, already filtered and ready to write. */
  kept: readonly MessageRecord[];
  /** How many kept messages come before the summary (those that preceded everything removed). */
  summaryAt: number;
  meta: { focus: string | null; preTokens: number; postTokens: number; planned?: PlannedSizes; title?: string };
  /** Injected clock and id source, for reproducible tests. */
  now?: () => Date;
  newId?: () => string;
}

/** `session-<YYYY-MM-DDTHH-MM>-<short id>.jsonl`, the minute in UTC, as the CLI names a new chat. */
export function chatFileName(shortId: string, at: Date): string {
  return `session-${at.toISOString().slice(0, 16).replace(/:/g, '-')}-${shortId}.jsonl`;
}

/** The session id and the file's short id: two short ids no file in the folder has, nor each other. */
async function freshIds(chatsDir: string, newId: () => string): Promise<Result<{ sessionId: string; fileId: string }>> {
  let names: string[];
  try {
    names = await readdir(chatsDir);
  } catch (error) {
    return fail('io', `Cannot list the chats folder ${chatsDir}: ${error instanceof Error ? error.message : String(error)}`, chatsDir);
  }
  const taken = new Set(names.flatMap((name) => SHORT_ID.exec(name)?.[1] ?? []).map((short) => short.toLowerCase()));
  const fresh: string[] = [];
  for (let attempt = 0; attempt < NAME_ATTEMPTS && fresh.length < 2; attempt++) {
    const id = newId();
    const short = id.slice(0, 8).toLowerCase();
    if (!taken.has(short)) {
      taken.add(short);
      fresh.push(id);
    }
  }
  const [sessionId, file] = fresh;
  if (sessionId === undefined || file === undefined) return fail('io', `No free short id in ${chatsDir} after ${NAME_ATTEMPTS} attempts`, chatsDir);
  return ok({ sessionId, fileId: file.slice(0, 8) });
}

export async function writeGeminiForkFile(file: GeminiForkFile): Promise<Result<{ sessionId: string; path: string }>> {
  const now = (file.now ?? (() => new Date()))();
  const fresh = await freshIds(file.chatsDir, file.newId ?? randomUUID);
  if (!fresh.ok) return fresh;
  const { sessionId, fileId } = fresh.value;
  const at = now.toISOString();
  const summary: MessageRecord = { id: randomUUID(), timestamp: at, type: 'user', content: [{ text: `${SUMMARY_PREAMBLE}\n\n${file.summary}` }] };
  const after = file.kept.slice(file.summaryAt);
  const ack: MessageRecord[] = after[0]?.type === 'gemini' ? [] : [{ id: randomUUID(), timestamp: at, type: 'gemini', content: SUMMARY_ACK, thoughts: [] }];
  const messages = [...file.kept.slice(0, file.summaryAt), summary, ...ack, ...after];
  const header = {
    sessionId,
    projectHash: file.projectHash,
    startTime: at,
    lastUpdated: at,
    kind: 'main',
    // The CLI shows `summary` as the session's name in --list-sessions and its resume picker.
    ...(file.meta.title !== undefined ? { summary: file.meta.title } : {}),
    [FORK_MARK_KEY]: {
      forkOf: { sessionId: file.sourceSessionId, title: file.sourceTitle },
      ...(file.meta.title !== undefined ? { title: file.meta.title } : {}),
      summary: file.summary,
      focus: file.meta.focus,
      preTokens: file.meta.preTokens,
      postTokens: file.meta.postTokens,
      // Readers take `postTokens` as the count of everything written here, up to `lastId`, sized as planned.
      lastId: messages.at(-1)?.id ?? summary.id,
      ...(file.meta.planned !== undefined ? { planned: file.meta.planned } : {}),
    },
  };
  const records = [header, ...messages];
  const path = join(file.chatsDir, chatFileName(fileId, now));
  const written = await writeNewAtomically(path, `${records.map((record) => JSON.stringify(record)).join('\n')}\n`);
  if (!written.ok) return written;
  return ok({ sessionId, path });
}
