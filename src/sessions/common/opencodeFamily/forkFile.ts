// A compaction of an OpenCode session as a new session in OpenCode's own export format (what
// `opencode export` prints and `opencode import` reads): the compaction request and its summary in
// the shape OpenCode writes its own (a user message with a `compaction` part, an assistant message
// with `summary: true`), then the live messages the engine kept, with new ids, compacted tool
// results in place of the originals. OpenCode replays a session from its newest answered compaction
// request, so resuming the fork sends our summary and the kept messages, nothing dropped.
import { forkPlanOf, type ForkPlan } from '../forkPlan';
import { randomBytes } from '../crypto';
import { SUMMARY_PREAMBLE } from '../forkTexts';
import type { ForkInput } from '../../port';
import { fail, ok } from '../../result';
import type { Result } from '../../types';
import { liveStart, readMessages } from './history';
import type { OpencodeFlavour } from './flavour';
import { parseSessionPath } from './paths';
import { obj, parseJson, str, type Json, type MessageRow } from './rows';
import { withStore } from '../opencodeStore';

export interface ForkFile {
  sessionId: string;
  db: string;
  directory: string;
  /** The export-format document `opencode import` reads. */
  document: Json;
}

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Ids shaped like OpenCode's (prefix, 12 hex digits of time and counter, 14 random base62): they sort in creation order. */
export class IdMaker {
  private counter = 0;

  constructor(private readonly nowMs: number) {}

  next(prefix: 'ses' | 'msg' | 'prt'): string {
    const stamp = (BigInt(this.nowMs) * 4096n + BigInt(this.counter++)).toString(16).padStart(12, '0').slice(-12);
    const random = [...randomBytes(14)].map((byte) => BASE62[byte % 62]).join('');
    return `${prefix}_${stamp}${random}`;
  }
}

/** The source's parts the plan keeps, a compacted tool result in place of the original. */
function keptParts(message: MessageRow, plan: ForkPlan, messageIndex: number | undefined): Json[] {
  const kept: Json[] = [];
  for (const part of message.parts) {
    const type = part.data.type;
    if (type === 'tool') {
      const callId = str(part.data.callID) ?? part.id;
      if (plan.toolFate('tool_use', callId)?.fate === 'dropped') continue;
      const replaced = plan.compactedResult(callId);
      const state = obj(part.data.state);
      kept.push(replaced !== undefined && state !== null ? { ...part.data, state: { ...state, output: replaced } } : part.data);
    } else if (type === 'text' || type === 'reasoning' || type === 'file') {
      if (messageIndex !== undefined && plan.textKept(messageIndex)) kept.push(part.data);
    } else if (type !== 'compaction') kept.push(part.data);
  }
  return kept;
}

/** The `permission` column: a JSON array of rules, or null. */
function parseJsonArray(text: unknown): unknown[] | null {
  if (typeof text !== 'string') return null;
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value : null;
  } catch {
    return null;
  }
}

const hasContent = (parts: readonly Json[]): boolean => parts.some((part) => part.type !== 'step-start' && part.type !== 'step-finish');

export async function forkFileOf(flavour: OpencodeFlavour, input: ForkInput, nowMs = Date.now()): Promise<Result<ForkFile>> {
  const planned = forkPlanOf(input);
  if (!planned.ok) return planned;
  const plan = planned.value;
  const source = input.live.session;
  const parsed = parseSessionPath(source.path);
  if (parsed === null) return fail('invalid-input', `Not a session of ${flavour.name}: ${source.path}`, source.path);
  return withStore(parsed.db, (store) => {
    const rows = store.sessions({ id: parsed.sessionId });
    if (!rows.ok) return rows;
    const row = rows.value[0];
    if (row === undefined) return fail('not-found', `No session ${parsed.sessionId} in ${parsed.db}`, source.path);
    const all = readMessages(store, parsed.sessionId);
    if (!all.ok) return all;
    const indexOf = new Map<string, number>();
    for (const entry of input.live.entries) for (const ref of entry.uuids) if (!indexOf.has(ref)) indexOf.set(ref, entry.messageIndex);
    // This read is newer than the plan's: messages the agent added since (a compaction too) are not
    // the plan's to keep. The plan may be of the context before one of its compactions (Redo): the
    // history it saw starts at the newest compaction before its last message.
    const planned = all.value.slice(0, all.value.findLastIndex((message) => indexOf.has(message.id)) + 1);
    const live = planned.slice(liveStart(planned));

    const ids = new IdMaker(nowMs);
    const sessionId = ids.next('ses');
    const directory = str(row.directory) ?? source.cwd ?? '';
    const model = parseJson(row.model);
    const modelRef = { providerID: str(model?.providerID) ?? '', modelID: str(model?.id) ?? '' };
    // OpenCode replays a session in the order of the messages' creation times, and from the newest
    // answered compaction request on: the kept messages are dated after ours, in their order.
    let clock = nowMs;
    const message = (info: Json, parts: Json[]): Json => {
      const id = ids.next('msg');
      const at = clock++;
      const time = { ...obj(info.time), created: at, ...(obj(info.time)?.completed !== undefined || info.role === 'assistant' ? { completed: at } : {}) };
      return {
        info: { ...info, time, id, sessionID: sessionId },
        parts: parts.map((part) => ({ ...part, id: ids.next('prt'), sessionID: sessionId, messageID: id })),
      };
    };
    const request = message({ role: 'user', time: { created: nowMs }, agent: str(row.agent) ?? 'build', model: modelRef }, [
      { type: 'compaction', auto: false },
    ]);
    const requestId = String(obj(request.info)?.id);
    const summary = message(
      {
        parentID: requestId,
        role: 'assistant',
        mode: 'compaction',
        agent: 'compaction',
        summary: true,
        path: { cwd: directory, root: '/' },
        cost: 0,
        tokens: { input: 0, output: 0, reasoning: 0, cache: { read: 0, write: 0 } },
        ...modelRef,
        time: { created: nowMs, completed: nowMs },
        finish: 'stop',
      },
      [{ type: 'text', text: `${SUMMARY_PREAMBLE}\n\n${plan.summary}` }],
    );
    const messages: Json[] = [request, summary];
    const newIds = new Map<string, string>();
    for (const original of live) {
      // The source's own compaction request and summary are what ours replaces.
      if (original.parts.some((part) => part.data.type === 'compaction') || original.data.summary === true) continue;
      const parts = keptParts(original, plan, indexOf.get(original.id));
      if (!hasContent(parts)) continue;
      const parent = str(original.data.parentID);
      const info = { ...original.data, ...(parent !== null ? { parentID: newIds.get(parent) ?? requestId } : {}) };
      const copied = message(info, parts);
      newIds.set(original.id, String(obj(copied.info)?.id));
      messages.push(copied);
    }
    const title = input.title ?? `${source.title} (compacted)`;
    const permission = parseJsonArray(row.permission);
    const info = {
      id: sessionId,
      slug: str(row.slug) ?? 'compacted',
      projectID: str(row.project_id) ?? 'global',
      directory,
      ...(str(row.path) !== null ? { path: row.path } : {}),
      title,
      ...(str(row.agent) !== null ? { agent: row.agent } : {}),
      ...(model !== null ? { model } : {}),
      version: str(row.version) ?? '',
      summary: { additions: 0, deletions: 0, files: 0 },
      cost: 0,
      tokens: { input: 0, output: 0, reasoning: 0, cache: { read: 0, write: 0 } },
      ...(permission !== null ? { permission } : {}),
      time: { created: nowMs, updated: nowMs },
    };
    return ok({ sessionId, db: parsed.db, directory, document: { info, messages } });
  });
}
