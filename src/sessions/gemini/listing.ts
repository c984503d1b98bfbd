// Session pickers for the Gemini CLI: which chats exist, what to call them, which one a workspace is
// using. A chat is read with every long string cut short (its shape, ids, counts and the start of
// each text are all a listing needs), applying the patches as the CLI does, so a file of many
// megabytes costs its bytes read once. Files that hold only the session context (the stub a resume
// leaves, sharing the session's short id, or a start that never got a prompt) are not sessions
// anyone can resume: they are left out, as the CLI's own list leaves them out.
import type { FileHandle } from 'node:fs/promises';
import { realpath } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import { readElidedLines } from '../common/elidedLines';
import { firstRecords } from '../common/firstRecords';
import { ok, withFile } from '../result';
import type { Diagnostic, Result, SessionInfo } from '../types';
import { Conversation } from './conversation';
import { liveModel } from './fill';
import {
  chatPlaceOf,
  isChatFileName,
  listChatFiles,
  listProjectDirs,
  projectDirsFor,
  projectRootOf,
  readProjects,
  resolveGeminiDirs,
  shortIdOf,
  type GeminiHomeOptions,
} from './paths';
import { scanChat } from './reader';
import { asMessage, GEMINI_AGENT, isHeader, isResumable, isSummary, obj, promptOf, type ChatRecord } from './records';

/** A title needs a few dozen characters; ids, counts and model names are short. */
const KEEP_STRING_BYTES = 4 * 1024;
/** A line still longer than this once its strings are cut is not the CLI's. */
const MAX_CUT_LINE_BYTES = 16 * 1024 * 1024;
const TITLE_MAX_CHARS = 80;

export interface GeminiListOptions extends GeminiHomeOptions {
  /** Only sessions of this working directory (else all). */
  workspacePath?: string;
  /** Also list chats holding nothing to resume (stubs). */
  includeStubs?: boolean;
}

export interface GeminiSessionListing {
  /** Newest activity first. */
  sessions: SessionInfo[];
  diagnostics: Diagnostic[];
}

/** What a chat holds, read cheaply. */
export interface ChatSample {
  conversation: Conversation;
  /** The first prompt typed, also when later rewound (the CLI titles sessions the same way). */
  firstPrompt: string | null;
}

async function sampleChat(handle: FileHandle, path: string): Promise<ChatSample> {
  const conversation = new Conversation();
  let firstPrompt: string | null = null;
  const take = (record: ChatRecord, line: number, offset: number, end: number): void => {
    conversation.observe({ record, line, offset, end });
    firstPrompt ??= firstPromptIn(record);
  };
  const size = (await handle.stat()).size;
  if (path.endsWith('.json')) {
    // The legacy shape is one (often pretty-printed) object: read whole, within the reader's cap.
    await scanChat(handle, path, {}, ({ record, line, offset, end }) => take(record, line, offset, end));
    return { conversation, firstPrompt };
  }
  let line = 0;
  let start = 0;
  await readElidedLines(handle, size, { keepBytes: KEEP_STRING_BYTES, maxLineBytes: MAX_CUT_LINE_BYTES }, (text, end) => {
    line++;
    const record = text === null ? null : parseObject(text);
    if (record !== null) take(record, line, start, end);
    start = end;
  });
  return { conversation, firstPrompt };
}

function parseObject(text: string): ChatRecord | null {
  try {
    return obj(JSON.parse(text) as unknown);
  } catch {
    return null;
  }
}

/** The first typed prompt a record holds (a message, or one inside a history snapshot). */
function firstPromptIn(record: ChatRecord): string | null {
  const candidates = typeof record.id === 'string' ? [record] : ((obj(record.$set)?.messages ?? record.messages) as unknown);
  for (const value of Array.isArray(candidates) ? candidates : []) {
    const message = asMessage(value);
    const prompt = message !== null && !isSummary(message) ? promptOf(message) : null;
    if (prompt !== null) return prompt;
  }
  return null;
}

function truncate(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > TITLE_MAX_CHARS ? `${flat.slice(0, TITLE_MAX_CHARS - 1)}…` : flat;
}

/** The session a chat file is, with `resumable` telling a stub (only the session context) apart. */
export async function readGeminiSession(path: string, knownCwd?: string | null): Promise<Result<{ info: SessionInfo; resumable: boolean }>> {
  return withFile(path, async (handle) => {
    const stats = await handle.stat();
    const { conversation, firstPrompt } = await sampleChat(handle, path);
    const place = chatPlaceOf(path);
    const live = conversation.list();
    const forkOf = conversation.forkOf;
    const subagent = conversation.kind === 'subagent' || place?.parentSessionId !== undefined;
    // The CLI names a session by its `summary` (a generated title, or the one a fork was given) when it has one.
    const title =
      conversation.summary ?? firstPrompt ?? (forkOf?.title ? `Fork of ${forkOf.title}` : subagent ? `Subagent ${basename(path)}` : 'Untitled session');
    const lastUpdated = Date.parse(typeof conversation.metadata.lastUpdated === 'string' ? conversation.metadata.lastUpdated : '');
    const info: SessionInfo = {
      id: conversation.sessionId ?? shortIdOf(path) ?? basename(path),
      agent: GEMINI_AGENT,
      path,
      projectDir: place?.projectDir ?? resolve(path, '..'),
      cwd: knownCwd !== undefined ? knownCwd : place === null ? null : await projectRootOf(place.projectDir),
      title: truncate(title),
      model: liveModel(live),
      lastActivityMs: stats.mtimeMs,
      lastRecordAtMs: Number.isFinite(lastUpdated) ? lastUpdated : null,
      sizeBytes: stats.size,
      isSidechain: subagent,
      ...(place?.parentSessionId !== undefined ? { parentSessionId: place.parentSessionId } : {}),
    };
    if (forkOf !== null) info.forkOf = { sessionId: forkOf.sessionId, title: forkOf.title };
    return ok({ info, resumable: live.some((placed) => isResumable(placed.message)) });
  });
}

export async function readGeminiSessionInfo(path: string): Promise<Result<SessionInfo>> {
  const read = await readGeminiSession(path);
  return read.ok ? ok(read.value.info) : read;
}

/** The forms of a directory the CLI may have registered: as given (resolved) and with links resolved. */
export async function cwdForms(path: string): Promise<string[]> {
  const given = resolve(path);
  const real = await realpath(given).catch(() => given);
  return [...new Set([given, real])];
}

/** Chats of every `.gemini` folder, or of one working directory (by projects.json and the legacy hash). */
export async function listGeminiSessions(options: GeminiListOptions = {}): Promise<Result<GeminiSessionListing>> {
  const sessions: SessionInfo[] = [];
  const diagnostics: Diagnostic[] = [];
  const cwds = options.workspacePath === undefined ? null : await cwdForms(options.workspacePath);
  for (const geminiDir of await resolveGeminiDirs(options)) {
    const projectDirs = cwds === null ? await listProjectDirs(geminiDir) : await projectDirsFor(geminiDir, cwds);
    const projects = await readProjects(geminiDir);
    for (const projectDir of projectDirs) {
      const files = await listChatFiles(projectDir);
      if (files.length === 0) continue;
      const cwd = await projectRootOf(projectDir, projects);
      for (const path of files) {
        const read = await readGeminiSession(path, cwd);
        if (!read.ok) {
          diagnostics.push({ severity: 'warning', code: read.error.code, message: read.error.message, path });
          continue;
        }
        if (read.value.resumable || options.includeStubs === true) sessions.push(read.value.info);
      }
    }
  }
  sessions.sort((a, b) => b.lastActivityMs - a.lastActivityMs);
  return ok({ sessions, diagnostics });
}

/** The chat most recently written for a working directory, or null. */
export async function findGeminiWorkspaceSession(workspacePath: string, options: GeminiHomeOptions = {}): Promise<Result<SessionInfo | null>> {
  const listed = await listGeminiSessions({ ...options, workspacePath });
  if (!listed.ok) return listed;
  return ok(listed.value.sessions[0] ?? null);
}

/**
 * Whether a file is a Gemini CLI chat: named like one inside a `chats` folder, or opening with the
 * CLI's header (a session id and a project hash; parsed, so any JSON spelling counts), or a legacy
 * whole-file chat whose text opens with its session id.
 */
export async function isGeminiChat(path: string): Promise<boolean> {
  if (isChatFileName(basename(path)) && chatPlaceOf(path) !== null) return true;
  const [first] = await firstRecords(path, 1);
  if (first !== undefined && isHeader(first)) return true;
  if (!path.endsWith('.json')) return false;
  const head = await withFile(path, async (handle) => {
    const bytes = Buffer.alloc(256);
    const { bytesRead } = await handle.read(bytes, 0, bytes.length, 0);
    return ok(bytes.subarray(0, bytesRead).toString('utf8'));
  });
  return head.ok && /^\uFEFF?\s*\{\s*"sessionId"\s*:/.test(head.value) && head.value.includes('"projectHash"');
}
