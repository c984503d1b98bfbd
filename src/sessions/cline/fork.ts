// Applies a compaction to a Cline session as a new session Cline resumes. SDK layout: a new folder
// `<data>/sessions/<new id>/` with the messages file and a manifest copied from the source's, which
// `cline --id <new id>` loads (the CLI 3.0.65 resumes a session from its folder alone; the index
// `sessions.db` is Cline's to write, so we never touch it). Legacy layout: a new task folder
// `tasks/<new id>/` beside the source's, with its history and UI messages. The fork opens with our
// summary as a user message, then the live messages the plan kept (their old counts left out: they
// measured the longer history), a compacted tool result in place of the original. The source's
// files are only read; what we write is new, and removed again if writing it fails.
import { mkdir, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { writeNewAtomically } from '../atomicWrite';
import { randomBytes } from '../common/crypto';
import { obj, str } from '../common/fields';
import { forkPlanOf, type ForkPlan } from '../common/forkPlan';
import { SUMMARY_PREAMBLE } from '../common/forkTexts';
import { readRegularText, withoutBom } from '../common/regularFile';
import type { ForkInput, WrittenFork } from '../port';
import { fail, failFromError, ok } from '../result';
import type { Result } from '../types';
import { placeOf, resumeCommandOf, type ClinePlace } from './paths';
import { FORK_MARK, TRANSCRIPT_CAP } from './records';

type Json = Record<string, unknown>;

async function readDocument(path: string): Promise<Result<unknown>> {
  const text = await readRegularText(path, TRANSCRIPT_CAP);
  if (!text.ok) return text;
  if (text.value === null) return fail('not-found', `No such file: ${path}`, path);
  try {
    return ok(JSON.parse(withoutBom(text.value)) as unknown);
  } catch (error) {
    return fail('invalid-input', `${path} is not JSON (${(error as Error).message})`, path);
  }
}

/** `1795827899999_a1b2c`: the shape of the CLI's own ids (time in ms, five base-36 characters). */
export function newSessionId(nowMs: number): string {
  const alphabet = '0123456789abcdefghijklmnopqrstuvwxyz';
  return `${nowMs}_${[...randomBytes(5)].map((byte) => alphabet[byte % 36]).join('')}`;
}

/** A message's blocks as the plan leaves them; null when nothing of it survives. */
function keptContent(content: unknown, plan: ForkPlan, messageIndex: number | undefined): unknown[] | null {
  const blocks = typeof content === 'string' ? [{ type: 'text', text: content }] : Array.isArray(content) ? content : [];
  const kept = blocks.flatMap((value): unknown[] => {
    const block = obj(value);
    if (block === null) return [];
    if (block.type === 'tool_use' && typeof block.id === 'string') return plan.toolFate('tool_use', block.id)?.fate === 'dropped' ? [] : [block];
    if (block.type === 'tool_result' && typeof block.tool_use_id === 'string') {
      if (plan.toolFate('tool_result', block.tool_use_id)?.fate === 'dropped') return [];
      const replaced = plan.compactedResult(block.tool_use_id);
      return [replaced === undefined ? block : { ...block, content: replaced }];
    }
    return messageIndex !== undefined && plan.textKept(messageIndex) ? [block] : [];
  });
  return kept.length > 0 ? kept : null;
}

/** The messages of the fork: our summary, then what was kept, consecutive messages of one role merged. */
function forkMessages(source: unknown[], refOf: (message: Json, index: number) => string, input: ForkInput, plan: ForkPlan, nowMs: number): Json[] {
  const indexOf = new Map<string, number>();
  for (const entry of input.live.entries) for (const ref of entry.uuids) if (!indexOf.has(ref)) indexOf.set(ref, entry.messageIndex);
  const out: Json[] = [
    {
      id: `cl_${nowMs}`,
      role: 'user',
      content: [{ type: 'text', text: `${SUMMARY_PREAMBLE}\n\n${plan.summary}` }],
      ts: nowMs,
      metadata: { contextLensFork: true },
    },
  ];
  source.forEach((value, index) => {
    const message = obj(value);
    if (message === null) return;
    const ref = refOf(message, index);
    // Only what the plan read: a message written since is not the plan's to keep.
    if (!indexOf.has(ref)) return;
    const content = keptContent(message.content, plan, indexOf.get(ref));
    if (content === null) return;
    const { metrics: _metrics, metadata: _metadata, ...rest } = message;
    const last = out[out.length - 1] as Json;
    if (last.role === message.role) last.content = [...(last.content as unknown[]), ...content];
    else out.push({ ...rest, content });
  });
  return out;
}

async function writeFolder(folder: string, files: readonly [string, string][]): Promise<Result<void>> {
  try {
    await mkdir(folder);
  } catch (error) {
    return failFromError(error, folder, 'create-folder');
  }
  for (const [name, text] of files) {
    const written = await writeNewAtomically(join(folder, name), text);
    if (!written.ok) {
      await rm(folder, { recursive: true, force: true });
      return written;
    }
  }
  return ok(undefined);
}

async function forkSdk(place: Extract<ClinePlace, { layout: 'sdk' }>, input: ForkInput, plan: ForkPlan, nowMs: number): Promise<Result<WrittenFork>> {
  const document = await readDocument(place.messages);
  if (!document.ok) return document;
  const root = obj(document.value);
  if (root === null || !Array.isArray(root.messages)) return fail('invalid-input', `Not a Cline session's messages: ${place.messages}`, place.messages);
  const manifestRead = await readDocument(place.manifest);
  const manifest = manifestRead.ok ? (obj(manifestRead.value) ?? {}) : {};
  const id = newSessionId(nowMs);
  const folder = join(place.dataDir, 'sessions', id);
  const messagesPath = join(folder, `${id}.messages.json`);
  const messages = forkMessages(root.messages, (message, index) => str(message.id) ?? `m${index}`, input, plan, nowMs);
  const title = input.title ?? `${input.live.session.title} (compacted)`;
  const { usage: _usage, aggregateUsage: _aggregate, totalCost: _total, aggregatedAgentsCost: _agents, ...metadata } = obj(manifest.metadata) ?? {};
  const now = new Date(nowMs).toISOString();
  const newManifest = {
    ...manifest,
    session_id: id,
    started_at: now,
    ended_at: now,
    status: 'completed',
    exit_code: 0,
    metadata: { ...metadata, title, contextLens: { forkOf: { sessionId: input.live.session.id, title: input.live.session.title }, ...plan.meta } },
    messages_path: messagesPath,
  };
  const body = { ...root, updated_at: now, sessionId: id, messages };
  const written = await writeFolder(folder, [
    [`${id}.json`, `${JSON.stringify(newManifest, null, 2)}\n`],
    [`${id}.messages.json`, `${JSON.stringify(body, null, 2)}\n`],
  ]);
  if (!written.ok) return written;
  return ok({ sessionId: id, path: messagesPath, resumeCommand: `cline --id ${id}` });
}

async function forkLegacy(place: Extract<ClinePlace, { layout: 'legacy' }>, input: ForkInput, plan: ForkPlan, nowMs: number): Promise<Result<WrittenFork>> {
  const document = await readDocument(place.history);
  if (!document.ok) return document;
  if (!Array.isArray(document.value)) return fail('invalid-input', `Not a Cline task's history: ${place.history}`, place.history);
  const id = String(nowMs);
  // Beside the source's folder: in the extension's `tasks/`, or next to a task folder copied out.
  const folder = join(dirname(place.folder), id);
  const messages = forkMessages(document.value, (_message, index) => `h${index}`, input, plan, nowMs).map(
    ({ id: _id, metadata: _metadata, ...message }) => message,
  );
  const title = input.title ?? `${input.live.session.title} (compacted)`;
  // The task opens with its title, as the extension's own tasks do; the mark says whose fork it is.
  const ui = [{ ts: nowMs, type: 'say', say: 'task', text: title, conversationHistoryIndex: -1 }];
  const mark = { forkOf: { sessionId: input.live.session.id, title: input.live.session.title }, ...plan.meta, cwd: input.live.session.cwd };
  const written = await writeFolder(folder, [
    ['api_conversation_history.json', JSON.stringify(messages)],
    ['ui_messages.json', JSON.stringify(ui)],
    // What the extension's task reconstruction reads besides the messages.
    ['task_metadata.json', JSON.stringify({ files_in_context: [], model_usage: [], environment_history: [] })],
    [FORK_MARK, `${JSON.stringify({ ...mark, title }, null, 2)}\n`],
  ]);
  if (!written.ok) return written;
  const path = join(folder, 'api_conversation_history.json');
  return ok({
    sessionId: id,
    path,
    resumeCommand: resumeCommandOf(path, id),
    notes: [
      `Written as task ${id} beside the source's. The extension lists it once its index has it: run "Cline: Reconstruct Task History" from the Command Palette (Context Lens never writes Cline's index).`,
    ],
  });
}

export async function writeClineFork(input: ForkInput): Promise<Result<WrittenFork>> {
  const planned = forkPlanOf(input);
  if (!planned.ok) return planned;
  const place = placeOf(input.live.session.path);
  if (place === null) return fail('invalid-input', `Not a Cline session: ${input.live.session.path}`, input.live.session.path);
  const nowMs = Date.now();
  return place.layout === 'sdk' ? forkSdk(place, input, planned.value, nowMs) : forkLegacy(place, input, planned.value, nowMs);
}
