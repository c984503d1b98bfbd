// The chat file that applies a compaction to a Gemini CLI session: a new session in the source's
// own chats folder, which `gemini -r <id>` (run in the session's working directory) resumes. Its
// header names a fresh session id and carries our mark; then our summary as a user message, an
// acknowledgement when the next kept message is not the model's (the history alternates, as after
// the CLI's own compression), and the kept messages in the CLI's record shape. Nothing else: the
// CLI adds its own session context on resume. The file name's short id is one no other file in the
// folder has, because the CLI's retention cleanup deletes every file sharing the short id of a
// session it expires. The source is only read; the new file appears atomically.
import { randomUUID } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { writeAtomically } from '../atomicWrite';
import { SUMMARY_PREAMBLE } from '../common/forkTexts';
import { fail, ok } from '../result';
import type { Result } from '../types';
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
  meta: { focus: string | null; preTokens: number; postTokens: number; title?: string };
  /** Injected clock and id source, for reproducible tests. */
  now?: () => Date;
  newId?: () => string;
}

/** `session-<YYYY-MM-DDTHH-MM>-<uuid8>.jsonl`, the minute in UTC, as the CLI names a new chat. */
export function chatFileName(sessionId: string, at: Date): string {
  return `session-${at.toISOString().slice(0, 16).replace(/:/g, '-')}-${sessionId.slice(0, 8)}.jsonl`;
}

async function freshSessionId(chatsDir: string, newId: () => string): Promise<Result<string>> {
  let names: string[];
  try {
    names = await readdir(chatsDir);
  } catch (error) {
    return fail('io', `Cannot list the chats folder ${chatsDir}: ${error instanceof Error ? error.message : String(error)}`, chatsDir);
  }
  const taken = new Set(names.flatMap((name) => SHORT_ID.exec(name)?.[1] ?? []).map((short) => short.toLowerCase()));
  for (let attempt = 0; attempt < NAME_ATTEMPTS; attempt++) {
    const id = newId();
    if (!taken.has(id.slice(0, 8).toLowerCase())) return ok(id);
  }
  return fail('io', `No free short id in ${chatsDir} after ${NAME_ATTEMPTS} attempts`, chatsDir);
}

export async function writeGeminiForkFile(file: GeminiForkFile): Promise<Result<{ sessionId: string; path: string }>> {
  const now = (file.now ?? (() => new Date()))();
  const fresh = await freshSessionId(file.chatsDir, file.newId ?? randomUUID);
  if (!fresh.ok) return fresh;
  const sessionId = fresh.value;
  const at = now.toISOString();
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
    },
  };
  const summary: MessageRecord = { id: randomUUID(), timestamp: at, type: 'user', content: [{ text: `${SUMMARY_PREAMBLE}\n\n${file.summary}` }] };
  const after = file.kept.slice(file.summaryAt);
  const ack: MessageRecord[] = after[0]?.type === 'gemini' ? [] : [{ id: randomUUID(), timestamp: at, type: 'gemini', content: SUMMARY_ACK, thoughts: [] }];
  const records = [header, ...file.kept.slice(0, file.summaryAt), summary, ...ack, ...after];
  const path = join(file.chatsDir, chatFileName(sessionId, now));
  const written = await writeAtomically(path, `${records.map((record) => JSON.stringify(record)).join('\n')}\n`);
  if (!written.ok) return written;
  return ok({ sessionId, path });
}
