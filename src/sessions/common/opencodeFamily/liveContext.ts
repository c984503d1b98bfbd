// What an OpenCode-family agent's model sees right now, from one read of its database: the session's messages
// after its newest compaction, as messages (messages.ts), the exact fill (fill.ts) and every
// compaction OpenCode performed in it.
import { fail, ok } from '../../result';
import type { CompactionEvent, Diagnostic, LiveContext, Result, SessionInfo } from '../../types';
import { fillOf } from './fill';
import { compactionPartOf, isAssistant, isSummary, liveStart, readMessages } from './history';
import { readOpencodeSessionInfo, sessionsIn } from './listing';
import { buildMessages } from './messages';
import type { OpencodeFlavour } from './flavour';
import { parseSessionPath } from './paths';
import { isoOf, promptOf, str, tokensOf, type MessageRow } from './rows';
import { withStore } from '../opencodeStore';
import { readOpencodeWindow } from './window';

export interface OpencodeReadOptions {
  windowOverride?: number;
  env?: Readonly<Record<string, string | undefined>>;
}

/**
 * Each compaction request, with the fill of the call before it, the prompt of the first call after
 * it (what the compacted context measured: OpenCode records no after size) and the summary that
 * answered it.
 */
export function compactionsOf(messages: readonly MessageRow[]): CompactionEvent[] {
  const events: CompactionEvent[] = [];
  let lastPrompt: number | null = null;
  let awaitingPost: CompactionEvent | null = null;
  for (const message of messages) {
    if (isAssistant(message) && !isSummary(message)) {
      const tokens = tokensOf(message.data.tokens);
      if (tokens !== null && promptOf(tokens) > 0) {
        lastPrompt = promptOf(tokens) + tokens.output;
        if (awaitingPost !== null) awaitingPost.postTokens = promptOf(tokens);
        awaitingPost = null;
      }
    }
    const part = compactionPartOf(message);
    if (part === undefined) continue;
    const summary = messages.find((other) => isSummary(other) && str(other.data.parentID) === message.id);
    const text =
      summary?.parts
        .filter((p) => p.data.type === 'text')
        .map((p) => str(p.data.text) ?? '')
        .join('\n') ?? null;
    awaitingPost = {
      uuid: message.id,
      by: 'agent',
      timestamp: isoOf(message.timeCreated),
      trigger: part.data.auto === true ? 'auto' : 'manual',
      preTokens: lastPrompt,
      postTokens: null,
      focus: null,
      summary: text,
    };
    events.push(awaitingPost);
  }
  return events;
}

export async function readOpencodeLiveContext(flavour: OpencodeFlavour, session: SessionInfo, options: OpencodeReadOptions = {}): Promise<Result<LiveContext>> {
  const parsed = parseSessionPath(session.path);
  if (parsed === null) return fail('invalid-input', `Not a session of ${flavour.name}: ${session.path}`, session.path);
  const window = await readOpencodeWindow(flavour, session.model, session.cwd, options.env);
  return withStore(parsed.db, (store) => {
    const current = sessionsIn(flavour, parsed.db, store, { id: parsed.sessionId });
    if (!current.ok) return current;
    const info = current.value[0];
    if (info === undefined) return fail('not-found', `No session ${parsed.sessionId} in ${parsed.db}`, session.path);
    const diagnostics: Diagnostic[] =
      store.walProblem === null ? [] : [{ severity: 'warning', code: 'wal-ignored', message: store.walProblem, path: `${parsed.db}-wal` }];
    const all = readMessages(store, parsed.sessionId, (diagnostic) => diagnostics.push({ ...diagnostic, path: parsed.db }));
    if (!all.ok) return all;
    return ok(
      liveContextOf(info, all.value, { window, ...(options.windowOverride !== undefined ? { windowOverride: options.windowOverride } : {}) }, diagnostics),
    );
  });
}

/** The window a session's fill is measured against: its model's, or the person's override. */
export interface OpencodeWindowChoice {
  window: Awaited<ReturnType<typeof readOpencodeWindow>>;
  windowOverride?: number;
}

/** What the model sees of `rows` (a session's messages, oldest first, maybe only the first of them): from the newest finished compaction on. */
export function liveContextOf(info: SessionInfo, rows: readonly MessageRow[], choice: OpencodeWindowChoice, diagnostics: Diagnostic[] = []): LiveContext {
  const live = rows.slice(liveStart(rows));
  const built = buildMessages(live);
  // A summary newer than the last counted call: that count was of the history it replaced.
  const lastCall = built.calls[built.calls.length - 1];
  const summaryIndex = built.entries.findLastIndex((entry) => entry.kind === 'compact-summary');
  const compacted = summaryIndex >= 0 && (lastCall === undefined || lastCall.from < summaryIndex);
  const fill = fillOf(built, (index) => built.entries[index]?.uuids[0] ?? null, compacted, { ...choice, model: info.model });
  return {
    session: info,
    source: 'chain',
    model: fill.model ?? info.model,
    messages: built.messages,
    entries: built.entries,
    fill,
    compactions: compactionsOf(rows),
    diagnostics,
    calls: built.calls,
  } satisfies LiveContext;
}

export { readOpencodeSessionInfo };
