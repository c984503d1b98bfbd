// Cline's sessions as the picker shows them. SDK layout: one folder per session under
// `<data>/sessions/`, its manifest `<id>.json` naming the working folder, title, model and (for a
// subagent) its parent. Legacy layout: one folder per task under `<storage>/tasks/`, the working
// folder and title from the extension's index `state/taskHistory.json`, else from the task's first
// request (Cline writes "Current Working Directory (<path>)" into it).
import type { Dirent } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { num, obj, str } from '../common/fields';
import { READ_CAPS, readRegularText, withoutBom } from '../common/regularFile';
import { fail, ok } from '../result';
import type { Result, SessionInfo } from '../types';
import { CLINE_ID, LEGACY_HISTORY, SUBAGENT_FILE, placeOf, resolveHomes, sdkMessagesPath, type ClinePlace, type ClineWhere } from './paths';
import { readTranscript, type ClineTranscript } from './records';

async function readSmallJson(path: string, cap: number = READ_CAPS.ownRecord): Promise<Record<string, unknown> | unknown[] | null> {
  const text = await readRegularText(path, cap);
  if (!text.ok || text.value === null) return null;
  try {
    const value = JSON.parse(withoutBom(text.value)) as unknown;
    return Array.isArray(value) ? value : obj(value);
  } catch {
    return null;
  }
}

const firstLine = (text: string): string =>
  text
    .replace(/<\/?(task|user_input)[^>]*>/g, '')
    .trim()
    .split('\n')[0]
    ?.slice(0, 200) ?? '';

interface Described {
  cwd: string | null;
  title: string;
  model: string | null;
  parentSessionId?: string;
  forkOf?: SessionInfo['forkOf'];
}

function describeSdk(manifest: Record<string, unknown> | null, parentId?: string): Described {
  const metadata = obj(manifest?.metadata);
  if (parentId !== undefined)
    return {
      cwd: str(manifest?.cwd) ?? str(manifest?.workspace_root),
      title: `Subagent of ${str(metadata?.title) ?? parentId}`,
      model: str(manifest?.model),
      parentSessionId: parentId,
    };
  const mark = obj(metadata?.contextLens);
  const parent = str(manifest?.parent_session_id);
  const forkOf = obj(mark?.forkOf);
  return {
    cwd: str(manifest?.cwd) ?? str(manifest?.workspace_root),
    title: str(metadata?.title) ?? (firstLine(str(manifest?.prompt) ?? '') || 'Cline session'),
    model: str(manifest?.model),
    ...(parent !== null ? { parentSessionId: parent } : {}),
    ...(forkOf !== null ? { forkOf: { sessionId: str(forkOf.sessionId), title: str(forkOf.title) } } : {}),
  };
}

/** The extension's index of tasks (`state/taskHistory.json`, or `taskHistory` in older state files): id → item. */
async function taskIndex(storage: string): Promise<Map<string, Record<string, unknown>>> {
  const list = await readSmallJson(join(storage, 'state', 'taskHistory.json'), READ_CAPS.archiveEntry);
  const index = new Map<string, Record<string, unknown>>();
  for (const value of Array.isArray(list) ? list : []) {
    const item = obj(value);
    const id = str(item?.id);
    if (item !== null && id !== null) index.set(id, item);
  }
  return index;
}

const CWD_PATTERN = /Current Working Directory \((.+?)\)/;

function describeLegacy(item: Record<string, unknown> | undefined, transcript: ClineTranscript | null): Described {
  const first = transcript?.messages.find((message) => message.role === 'user');
  const text = first?.content.map((block) => (typeof block.text === 'string' ? block.text : '')).join('\n') ?? '';
  const task = /<task>\n?([\s\S]*?)<\/task>/.exec(text)?.[1] ?? text;
  const mark = obj(obj(transcript?.manifest?.metadata)?.contextLens);
  const forkOf = obj(mark?.forkOf);
  return {
    ...(forkOf !== null ? { forkOf: { sessionId: str(forkOf.sessionId), title: str(forkOf.title) } } : {}),
    cwd: str(item?.cwdOnTaskInitialization) ?? str(mark?.cwd) ?? CWD_PATTERN.exec(text)?.[1] ?? null,
    title: str(mark?.title) ?? (firstLine(str(item?.task) ?? task) || 'Cline task'),
    model: transcript?.messages.findLast((message) => message.model !== null)?.model ?? str(item?.modelId) ?? null,
  };
}

async function infoAt(place: ClinePlace, described: Described): Promise<SessionInfo | null> {
  const path = place.layout === 'sdk' ? place.messages : place.history;
  try {
    const stats = await stat(path);
    if (!stats.isFile()) return null;
    return {
      id: place.id,
      agent: CLINE_ID,
      path,
      projectDir: place.folder,
      cwd: described.cwd,
      title: described.title,
      model: described.model,
      lastActivityMs: stats.mtimeMs,
      lastRecordAtMs: null,
      sizeBytes: stats.size,
      isSidechain: described.parentSessionId !== undefined,
      ...(described.parentSessionId !== undefined ? { parentSessionId: described.parentSessionId } : {}),
      ...(described.forkOf !== undefined ? { forkOf: described.forkOf } : {}),
    };
  } catch {
    return null;
  }
}

/** Picker information of a transcript already read. */
export async function sessionInfoOf(transcript: ClineTranscript): Promise<SessionInfo> {
  const place = transcript.place;
  const described =
    place.layout === 'sdk' ? describeSdk(transcript.manifest, place.parentId) : describeLegacy((await taskIndex(place.storage)).get(place.id), transcript);
  const path = place.layout === 'sdk' ? place.messages : place.history;
  return (
    (await infoAt(place, described)) ?? {
      id: place.id,
      agent: CLINE_ID,
      path,
      projectDir: place.folder,
      cwd: described.cwd,
      title: described.title,
      model: described.model,
      lastActivityMs: 0,
      sizeBytes: 0,
      isSidechain: false,
    }
  );
}

export async function readClineSessionInfo(path: string): Promise<Result<SessionInfo>> {
  const place = placeOf(path);
  if (place === null) return fail('invalid-input', `Not a Cline session file: ${path}`, path);
  if (place.layout === 'sdk') {
    const manifest = await readSmallJson(place.manifest);
    const info = await infoAt(place, describeSdk(Array.isArray(manifest) ? null : manifest, place.parentId));
    return info === null ? fail('not-found', `No Cline session at ${path}`, path) : ok(info);
  }
  const transcript = await readTranscript(path);
  if (!transcript.ok) return transcript;
  return ok(await sessionInfoOf(transcript.value));
}

async function entries(folder: string): Promise<Dirent[]> {
  try {
    return await readdir(folder, { withFileTypes: true });
  } catch {
    return [];
  }
}

async function sessionsOfHome(home: string): Promise<SessionInfo[]> {
  const found: SessionInfo[] = [];
  for (const entry of await entries(join(home, 'sessions'))) {
    if (!entry.isDirectory()) continue;
    const info = await readClineSessionInfo(sdkMessagesPath(home, entry.name));
    if (info.ok) found.push(info.value);
    for (const file of await entries(join(home, 'sessions', entry.name))) {
      if (!file.isFile() || !SUBAGENT_FILE.test(file.name)) continue;
      const subagent = await readClineSessionInfo(join(home, 'sessions', entry.name, file.name));
      if (subagent.ok) found.push(subagent.value);
    }
  }
  const tasks = await entries(join(home, 'tasks'));
  if (tasks.length === 0) return found;
  const index = await taskIndex(home);
  for (const entry of tasks) {
    if (!entry.isDirectory()) continue;
    const place = placeOf(join(home, 'tasks', entry.name, LEGACY_HISTORY));
    if (place === null) continue;
    const item = index.get(place.id);
    // The index names the folder and title; without it the task's first request is read.
    const transcript = item !== undefined && str(item.cwdOnTaskInitialization) !== null ? null : await readTranscript(join(place.folder, LEGACY_HISTORY));
    const info = await infoAt(place, describeLegacy(item, transcript?.ok ? transcript.value : null));
    if (info !== null) found.push({ ...info, lastRecordAtMs: num(item?.ts) });
  }
  return found;
}

const sameFolder = (a: string | null, b: string): boolean => a !== null && resolve(a) === resolve(b);

export async function listClineSessions(where: ClineWhere, workspacePath?: string): Promise<Result<SessionInfo[]>> {
  const all = (await Promise.all(resolveHomes(where).map(sessionsOfHome))).flat();
  const listed = workspacePath === undefined ? all : all.filter((session) => sameFolder(session.cwd, workspacePath));
  return ok(listed.sort((a, b) => (b.lastRecordAtMs ?? b.lastActivityMs) - (a.lastRecordAtMs ?? a.lastActivityMs)));
}

export async function findClineWorkspaceSession(workspacePath: string, where: ClineWhere): Promise<Result<SessionInfo | null>> {
  const listed = await listClineSessions(where, workspacePath);
  return listed.ok ? ok(listed.value.find((session) => !session.isSidechain) ?? null) : listed;
}
