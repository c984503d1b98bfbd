// Session pickers for Codex: which rollouts exist, what to call them, which one a workspace is
// using. Each file is sampled at its head (session_meta: id, cwd; the first prompt for the title)
// and its tail (the model of the newest turn), so listing stays cheap with many sessions.
import { ok, withFile } from '../result';
import type { Diagnostic, Result, SessionInfo } from '../types';
import { canonicalCwd } from '../common/paths';
import { firstRecords } from '../common/firstRecords';
import { LineSplitter } from '../common/lines';
import { linesBackward } from '../common/tail';
import { RolloutParser } from './reader';
import { codexHomeOf, listRolloutFiles, resolveCodexHomes, sessionIdFromPath, type CodexHomeOptions } from './paths';
import { typedPrompt } from './typedPrompt';
import {
  contextLensMark,
  messageText,
  obj,
  payloadOf,
  responseItemOf,
  str,
  turnModelOf,
  replacementHistory,
  type CodexForkMark,
  type HistoryItem,
  type RolloutRecord,
} from './records';

/** session_meta carries Codex's base instructions (20 kB and more): the head must hold it and the first prompt. */
const HEAD_BYTES = 256 * 1024;
const TAIL_MAX_BYTES = 1024 * 1024;
const TITLE_MAX_CHARS = 80;

export interface CodexListOptions extends CodexHomeOptions {
  /** Only sessions whose `session_meta.cwd` is this folder (else all). */
  workspacePath?: string;
}

export interface CodexSessionListing {
  /** Newest activity first. */
  sessions: SessionInfo[];
  diagnostics: Diagnostic[];
}

interface Sample {
  id: string | null;
  cwd: string | null;
  firstPrompt: string | null;
  model: string | null;
  forkOf: CodexForkMark | null;
}

export async function readCodexSessionInfo(path: string): Promise<Result<SessionInfo>> {
  return withFile(path, async (handle) => {
    const stats = await handle.stat();
    const sample: Sample = { id: null, cwd: null, firstPrompt: null, model: null, forkOf: null };
    const parser = new RolloutParser(path);
    const head = Buffer.allocUnsafe(Math.min(HEAD_BYTES, stats.size));
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    new LineSplitter().push(head.subarray(0, bytesRead), (bytes, line, offset, end) => {
      const located = parser.parse(bytes, line, offset, end);
      if (located) sampleHead(sample, located.record);
    });
    for await (const line of linesBackward(handle, stats.size)) {
      if (sample.model !== null || stats.size - line.offset > TAIL_MAX_BYTES) break;
      const located = line.terminated ? parser.parse(line.bytes, 0, line.offset, line.end) : null;
      if (located) sample.model = turnModelOf(located.record);
    }
    const id = sample.id ?? sessionIdFromPath(path) ?? path;
    const info: SessionInfo = {
      id,
      agent: 'codex',
      path,
      projectDir: codexHomeOf(path) ?? path,
      cwd: sample.cwd,
      title: truncate(sample.firstPrompt ?? sample.forkOf?.title ?? (sample.forkOf?.sourceTitle ? `Fork of ${sample.forkOf.sourceTitle}` : 'Untitled session')),
      model: sample.model,
      lastActivityMs: stats.mtimeMs,
      sizeBytes: stats.size,
      isSidechain: false,
    };
    if (sample.forkOf !== null) info.forkOf = { sessionId: sample.forkOf.sourceSessionId, title: sample.forkOf.sourceTitle };
    return ok(info);
  });
}

function sampleHead(sample: Sample, record: RolloutRecord): void {
  if (record.type === 'session_meta') {
    const meta = payloadOf(record);
    sample.id ??= str(meta?.id) ?? str(meta?.session_id);
    sample.cwd ??= str(meta?.cwd);
    sample.forkOf ??= contextLensMark(record);
    return;
  }
  sample.cwd ??= record.type === 'turn_context' ? str(payloadOf(record)?.cwd) : null;
  sample.model ??= turnModelOf(record);
  if (record.type === 'compacted') {
    // A compacted history (a fork, or an early compaction) names the prompts it kept; its summary is no prompt.
    const summary = str(payloadOf(record)?.message);
    for (const item of replacementHistory(record)) if (messageText(item) !== summary) sample.firstPrompt ??= promptText(item);
    return;
  }
  // The desktop app may write the prompt only as an event (no user message in the history).
  const event = record.type === 'event_msg' ? payloadOf(record) : null;
  if (event?.type === 'user_message') sample.firstPrompt ??= nonEmpty(typedPrompt([str(event.message) ?? '']));
  sample.firstPrompt ??= promptText(responseItemOf(record));
}

const nonEmpty = (text: string): string | null => (text === '' ? null : text);

/** The text of a prompt the person typed: a user message without the context Codex and its IDE wrap around it. */
function promptText(item: HistoryItem | null): string | null {
  if (item?.type !== 'message' || item.role !== 'user') return null;
  const parts = Array.isArray(item.content)
    ? item.content.flatMap((part) => (typeof obj(part)?.text === 'string' ? [String(obj(part)?.text)] : []))
    : [messageText(item)];
  return nonEmpty(typedPrompt(parts));
}

function truncate(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > TITLE_MAX_CHARS ? `${flat.slice(0, TITLE_MAX_CHARS - 1)}…` : flat;
}

/** Rollouts of every CODEX_HOME, or of one workspace folder (by `session_meta.cwd`). */
export async function listCodexSessions(options: CodexListOptions = {}): Promise<Result<CodexSessionListing>> {
  const sessions: SessionInfo[] = [];
  const diagnostics: Diagnostic[] = [];
  const cwd = options.workspacePath === undefined ? null : await canonicalCwd(options.workspacePath);
  for (const codexHome of resolveCodexHomes(options)) {
    for (const path of await listRolloutFiles(codexHome)) {
      const info = await readCodexSessionInfo(path);
      if (!info.ok) {
        diagnostics.push({ severity: 'warning', code: info.error.code, message: info.error.message, path });
        continue;
      }
      if (cwd === null || (info.value.cwd !== null && (info.value.cwd === cwd || (await canonicalCwd(info.value.cwd)) === cwd))) sessions.push(info.value);
    }
  }
  sessions.sort((a, b) => b.lastActivityMs - a.lastActivityMs);
  return ok({ sessions, diagnostics });
}

/** The rollout most recently written for a workspace folder, or null. */
export async function findCodexWorkspaceSession(workspacePath: string, options: CodexHomeOptions = {}): Promise<Result<SessionInfo | null>> {
  const listed = await listCodexSessions({ ...options, workspacePath });
  if (!listed.ok) return listed;
  return ok(listed.value.sessions[0] ?? null);
}

/** Whether a file is a Codex rollout: its first record is a session_meta (parsed, so any JSON spelling counts). */
export async function isCodexRollout(path: string): Promise<boolean> {
  const [first] = await firstRecords(path, 1);
  return first?.type === 'session_meta';
}
