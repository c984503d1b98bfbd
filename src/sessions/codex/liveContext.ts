// What Codex's model sees right now, rebuilt from the rollout in one forward pass: the history
// items after the newest `compacted` record (its replacement_history first), with the base
// instructions from session_meta as the system prompt, the fill and every compaction of the file.
// Only the live history is kept while reading, so memory follows the context, not the file.
import { ok, withFile } from '../result';
import { plannedSizesOf, type ContentBlock, type LiveContext, type PlannedSizes, type Result, type SessionInfo } from '../types';
import { CodexCallCollector } from './calls';
import { CodexCompactionCollector } from './compactions';
import { CodexFillTracker, type CodexFillOptions } from './fill';
import { readCodexSessionInfo } from './listing';
import { messagesFromHistory, type PlacedItem } from './messages';
import { scanRollout } from './reader';
import { CONTEXT_LENS_KEY, itemRef, messageText, obj, payloadOf, replacementHistory, responseItemOf, str, timestampOf, type LocatedRollout } from './records';

export interface CodexLiveContextOptions extends CodexFillOptions {
  /** Picker information already known (saves re-reading the file's head and tail). */
  session?: SessionInfo;
}

/** Follows records in file order and keeps the history the model would be sent next. */
export class HistoryBuilder {
  items: PlacedItem[] = [];
  baseInstructions: string | null = null;
  /** The sizes the newest compaction planned, when Context Lens wrote it (a fork's). */
  planned: PlannedSizes | undefined;

  observe({ record, line, offset }: LocatedRollout): void {
    if (record.type === 'session_meta') {
      this.baseInstructions = str(obj(payloadOf(record)?.base_instructions)?.text) ?? this.baseInstructions;
      return;
    }
    if (record.type === 'compacted') {
      const summary = str(payloadOf(record)?.message);
      this.planned = plannedSizesOf(obj(payloadOf(record)?.[CONTEXT_LENS_KEY])?.planned);
      const timestamp = timestampOf(record);
      this.items = replacementHistory(record).map((item, index) => ({
        item,
        ref: itemRef(offset, index),
        line,
        timestamp,
        ...(item.type === 'message' && item.role === 'user' && summary !== null && messageText(item) === summary ? { isSummary: true } : {}),
      }));
      return;
    }
    const item = responseItemOf(record);
    if (item !== null) this.items.push({ item, ref: itemRef(offset), line, timestamp: timestampOf(record) });
  }
}

export async function readCodexLiveContext(path: string, options: CodexLiveContextOptions = {}): Promise<Result<LiveContext>> {
  const info = options.session === undefined ? await readCodexSessionInfo(path) : ok(options.session);
  if (!info.ok) return info;
  const session = info.value;
  return withFile(path, async (handle) => {
    const fill = new CodexFillTracker();
    const compactions = new CodexCompactionCollector();
    const history = new HistoryBuilder();
    const calls = new CodexCallCollector();
    const scan = await scanRollout(handle, path, {}, (located) => {
      fill.observe(located);
      calls.observe(located);
      compactions.observe(located);
      history.observe(located);
    });
    const built = messagesFromHistory(history.items, path);
    const snapshot = fill.snapshot(options);
    // Codex's own encrypted compaction items go with the head: no tier may summarise or stub them.
    const head: ContentBlock[] = [...(history.baseInstructions === null ? [] : [{ type: 'text', text: history.baseInstructions }]), ...built.opaque];
    const system: ContentBlock[] | undefined = head.length === 0 ? undefined : head;
    const measured = calls.calls(built.entries);
    return ok({
      session,
      source: 'chain',
      model: snapshot.model ?? session.model,
      ...(system ? { system } : {}),
      messages: built.messages,
      entries: built.entries,
      fill: snapshot,
      compactions: compactions.all(),
      diagnostics: [...scan.diagnostics, ...built.diagnostics],
      calls: measured,
      readEnd: scan.size,
      // Until the fork's first call, it reads back with the sizes its compaction planned.
      ...(history.planned !== undefined && measured.length === 0 ? { planned: history.planned } : {}),
    } satisfies LiveContext);
  });
}
