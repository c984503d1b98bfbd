// Session pickers: which transcripts exist, what to call them, which one a workspace is using.
// Listing must stay cheap with hundreds of sessions, so each file is sampled at its head (first
// prompt, cwd) and its tail (titles, last model), the way Claude Code's own picker does. The head
// read goes further, with long strings cut, only for a file whose first typed prompt is not near
// its start (a pasted image, a command's long output before it) and that has no other title.
import { readdir } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { failFromError, ok, withFile } from '../result';
import type { Diagnostic, Result, SessionInfo } from '../types';
import { readElidedLines } from '../common/elidedLines';
import { FirstPrompt } from './firstPrompt';
import { RecordParser } from './jsonl';
import { canonicalCwd } from '../common/paths';
import { isSubagentTranscript, projectDirCandidates, allProjectDirs, resolveConfigDirs, subagentParent, type ConfigDirOptions } from './paths';
import { contextLensMark, isSidechain, messageOf, obj, str, type ContextLensMark, type RawRecord } from './records';
import { linesBackward } from '../common/tail';

const HEAD_BYTES = 64 * 1024;
/** How far the head is read for a first typed prompt when nothing else titles the session. */
const TITLE_BUDGET_BYTES = 16 * 1024 * 1024;
/** Head lines are read with strings cut to this (a title needs a few dozen characters)… */
const HEAD_STRING_BYTES = 8 * 1024;
/** …and a line still longer than this once cut is skipped. */
const HEAD_LINE_BYTES = 1024 * 1024;
/** Read at least this much of the tail for titles, and at most `TAIL_MAX_BYTES` looking for a model. */
const TAIL_MIN_BYTES = 64 * 1024;
const TAIL_MAX_BYTES = 1024 * 1024;
const TITLE_MAX_CHARS = 80;
const SUBAGENT_FILE = /^agent-.+\.jsonl$/;

export interface ListOptions extends ConfigDirOptions {
  /** Only sessions of this workspace folder (else every project folder). */
  workspacePath?: string;
  /** Include subagent transcripts (default true). */
  includeSidechains?: boolean;
}

export interface SessionListing {
  /** Newest activity first. */
  sessions: SessionInfo[];
  diagnostics: Diagnostic[];
}

interface Sample {
  /** A subagent's file: its prompts are all sidechain records, and the only ones to title it. */
  sidechain: boolean;
  /** The session its records belong to (a legacy subagent file names its parent this way). */
  sessionId: string | null;
  forkOf: ContextLensMark | null;
  cwd: string | null;
  customTitle: string | null;
  aiTitle: string | null;
  summary: string | null;
  firstPrompt: FirstPrompt;
  model: string | null;
  /** Newest record timestamp (the tail is read newest first). */
  lastRecordAtMs: number | null;
}

/**
 * Reads one transcript's picker information. A subagent's transcript is `<session>/subagents/agent-*.jsonl`
 * (the session id is the folder's name, or the caller's) or, before 2.1, `agent-*.jsonl` beside the sessions, whose
 * records name the session that spawned it.
 */
export async function readSessionInfo(path: string, parentSessionId = subagentParent(path)): Promise<Result<SessionInfo>> {
  const legacyAgent = parentSessionId === undefined && isSubagentTranscript(path);
  return withFile(path, async (handle) => {
    const stats = await handle.stat();
    const sidechain = parentSessionId !== undefined || legacyAgent;
    const sample: Sample = {
      sidechain,
      sessionId: null,
      forkOf: null,
      cwd: null,
      customTitle: null,
      aiTitle: null,
      summary: null,
      firstPrompt: new FirstPrompt(sidechain),
      model: null,
      lastRecordAtMs: null,
    };
    const parser = new RecordParser(path);
    // Tail first: there the newest title is met first and wins.
    for await (const line of linesBackward(handle, stats.size)) {
      const scanned = stats.size - line.offset;
      if (scanned > TAIL_MAX_BYTES || (scanned > TAIL_MIN_BYTES && sample.model !== null)) break;
      const located = line.terminated ? parser.parse(line.bytes, 0, line.offset, line.end) : null;
      if (located) sampleTail(sample, located.record);
    }
    const titled = sample.customTitle !== null || sample.aiTitle !== null || sample.summary !== null;
    await readElidedLines(handle, titled ? HEAD_BYTES : TITLE_BUDGET_BYTES, { keepBytes: HEAD_STRING_BYTES, maxLineBytes: HEAD_LINE_BYTES }, (text, end) => {
      const record = text === null ? null : parseRecord(text);
      if (record !== null) sampleHead(sample, record);
      // The head names the cwd, the session, a fork's source, old titles; past it only the prompt is looked for.
      return end >= HEAD_BYTES && (titled || sample.firstPrompt.typed !== null);
    });
    const id = basename(path, '.jsonl');
    const parent = parentSessionId ?? (legacyAgent ? (sample.sessionId ?? undefined) : undefined);
    // A fork is named after its source until it gets a title of its own; a command only when nothing was typed.
    const title =
      sample.customTitle ??
      sample.aiTitle ??
      sample.summary ??
      sample.forkOf?.sourceTitle ??
      sample.firstPrompt.typed ??
      sample.firstPrompt.command ??
      (sample.sidechain ? `Subagent ${id}` : 'Untitled session');
    const info: SessionInfo = {
      id,
      agent: 'claude-code',
      path,
      projectDir: parentSessionId ? dirname(dirname(dirname(path))) : dirname(path),
      cwd: sample.cwd,
      title: truncate(title),
      model: sample.model,
      lastActivityMs: stats.mtimeMs,
      lastRecordAtMs: sample.lastRecordAtMs,
      sizeBytes: stats.size,
      isSidechain: sample.sidechain,
    };
    if (parent !== undefined) info.parentSessionId = parent;
    if (sample.forkOf !== null) info.forkOf = { sessionId: sample.forkOf.sourceSessionId, title: sample.forkOf.sourceTitle };
    return ok(info);
  });
}

function sampleHead(sample: Sample, record: RawRecord): void {
  sample.cwd ??= str(record.cwd);
  sample.sessionId ??= str(record.sessionId);
  sample.forkOf ??= contextLensMark(record);
  // Older versions keep subagent conversations in the main file: their prompts are not its title.
  sample.firstPrompt.observe(record);
  sampleTitles(sample, record);
}

function sampleTail(sample: Sample, record: RawRecord): void {
  sample.cwd ??= str(record.cwd);
  const at = Date.parse(str(record.timestamp) ?? '');
  if (Number.isFinite(at)) sample.lastRecordAtMs ??= at;
  // The model of this side's newest response (a legacy main file also holds its subagents').
  if (record.type === 'assistant' && isSidechain(record) === sample.sidechain) {
    const model = str(messageOf(record)?.model);
    if (model !== null && model !== '<synthetic>') sample.model ??= model;
  }
  sampleTitles(sample, record);
}

/** The first title of each kind seen wins: the tail is read newest first, before the head. */
function sampleTitles(sample: Sample, record: RawRecord): void {
  if (record.type === 'custom-title') sample.customTitle ??= str(record.customTitle);
  else if (record.type === 'ai-title') sample.aiTitle ??= str(record.aiTitle) ?? str(record.title);
  else if (record.type === 'summary') sample.summary ??= str(record.summary);
}

/** A head line's record, or null for anything that is not one (the live reader reports damage). */
function parseRecord(text: string): RawRecord | null {
  try {
    return obj(JSON.parse(text)) as RawRecord | null;
  } catch {
    return null;
  }
}

function truncate(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > TITLE_MAX_CHARS ? `${flat.slice(0, TITLE_MAX_CHARS - 1)}…` : flat;
}

/**
 * The subagent transcripts of a main session, both layouts: `<session>/subagents/agent-*.jsonl`
 * (2.1.x) and, from 2.0.x, `agent-*.jsonl` beside the sessions whose records name this session.
 * Unreadable ones are left out (the listing reports them).
 */
export async function subagentSessions(session: SessionInfo): Promise<SessionInfo[]> {
  if (session.isSidechain) return [];
  const found: SessionInfo[] = [];
  const folder = join(session.projectDir, session.id, 'subagents');
  for (const name of (await readdir(folder).catch(() => [] as string[])).filter((file) => SUBAGENT_FILE.test(file)).sort()) {
    const info = await readSessionInfo(join(folder, name), session.id);
    if (info.ok) found.push(info.value);
  }
  for (const name of (await readdir(session.projectDir).catch(() => [] as string[])).filter((file) => SUBAGENT_FILE.test(file)).sort()) {
    const info = await readSessionInfo(join(session.projectDir, name));
    if (info.ok && info.value.parentSessionId === session.id) found.push(info.value);
  }
  return found;
}

/** Transcripts of one project folder, with their subagents. Unreadable files become diagnostics. */
export async function listProjectSessions(projectDir: string, includeSidechains = true): Promise<SessionListing> {
  const sessions: SessionInfo[] = [];
  const diagnostics: Diagnostic[] = [];
  const collect = async (path: string, parentSessionId?: string): Promise<void> => {
    const result = await readSessionInfo(path, parentSessionId);
    if (result.ok) sessions.push(result.value);
    else diagnostics.push({ severity: 'warning', code: result.error.code, message: result.error.message, path });
  };
  let names: string[];
  try {
    names = await readdir(projectDir);
  } catch (error) {
    const failure = failFromError<never>(error, projectDir);
    return { sessions, diagnostics: failure.ok ? [] : [{ severity: 'warning', code: failure.error.code, message: failure.error.message, path: projectDir }] };
  }
  for (const name of names) {
    if (name.endsWith('.jsonl')) {
      if (includeSidechains || !SUBAGENT_FILE.test(name)) await collect(join(projectDir, name));
    } else if (includeSidechains) {
      const subagents = join(projectDir, name, 'subagents');
      const agentFiles = await readdir(subagents).catch(() => [] as string[]);
      for (const file of agentFiles) if (SUBAGENT_FILE.test(file)) await collect(join(subagents, file), name);
    }
  }
  sessions.sort((a, b) => b.lastActivityMs - a.lastActivityMs);
  return { sessions, diagnostics };
}

/** Sessions of every config folder, or of one workspace folder when `workspacePath` is given. */
export async function listSessions(options: ListOptions = {}): Promise<Result<SessionListing>> {
  const configDirs = resolveConfigDirs(options);
  const sessions: SessionInfo[] = [];
  const diagnostics: Diagnostic[] = [];
  const cwd = options.workspacePath === undefined ? null : await canonicalCwd(options.workspacePath);
  for (const configDir of configDirs) {
    const folders =
      cwd === null ? (await allProjectDirs(configDir)).map((path) => ({ path, match: 'exact' as const })) : await projectDirCandidates(configDir, cwd);
    for (const folder of folders) {
      const listing = await listProjectSessions(folder.path, options.includeSidechains ?? true);
      diagnostics.push(...listing.diagnostics);
      // A prefix match is only ours if the records say so (the hash suffix was not checkable).
      sessions.push(...(folder.match === 'prefix' ? listing.sessions.filter((session) => session.cwd === cwd) : listing.sessions));
    }
  }
  sessions.sort((a, b) => b.lastActivityMs - a.lastActivityMs);
  return ok({ sessions, diagnostics });
}

/** The session most recently written for a workspace folder (main sessions only), or null. */
export async function findWorkspaceSession(workspacePath: string, options: ConfigDirOptions = {}): Promise<Result<SessionInfo | null>> {
  const listed = await listSessions({ ...options, workspacePath, includeSidechains: false });
  if (!listed.ok) return listed;
  return ok(listed.value.sessions[0] ?? null);
}
