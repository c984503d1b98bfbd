// Where the hooks look for the person's rules and open loops in an OpenCode session (`<db>#<id>`):
// every message up to its latest compaction request, before earlier compactions too, from one
// snapshot of the database.
// What the person typed (text parts OpenCode did not add itself), the agent's text (open loops
// only) and the summaries of earlier compactions (`summary: true`).
import type { PinSource } from '../connection';
import { parseSessionPath } from '../common/opencodeFamily';
import { readMessages, isSummary, compactionPartOf } from '../common/opencodeFamily/history';
import type { MessageRow } from '../common/opencodeFamily/rows';
import { withStore } from '../common/opencodeStore';
import { ok } from '../result';

/** The text parts of a message that OpenCode did not make up (`synthetic`) or hide (`ignored`). */
function textOf(message: MessageRow): string {
  return message.parts
    .flatMap(({ data }) => (data.type === 'text' && typeof data.text === 'string' && data.synthetic !== true && data.ignored !== true ? [data.text] : []))
    .join('\n')
    .trim();
}

export async function forEachOpencodePinSource(path: string, visit: (source: PinSource) => void): Promise<void> {
  const parsed = parseSessionPath(path);
  if (parsed === null) throw new Error(`Not an OpenCode session: ${path}`);
  const read = await withStore(parsed.db, (store) => readMessages(store, parsed.sessionId));
  if (!read.ok) throw new Error(read.error.message);
  // What the latest compaction summarised (the one under way, for the summariser): what came after
  // it is in the conversation word for word. So the block stays the same from one compaction to the
  // next, whichever \`opencode\` process builds it, and the provider's prompt cache keeps it (built
  // from every message, it grew with each prompt and moved the cached prefix on each start).
  const end = read.value.findLastIndex((message) => compactionPartOf(message) !== undefined);
  read.value.forEach((message, index) => {
    const text = textOf(message);
    if (text === '' || compactionPartOf(message) !== undefined || (end >= 0 && index > end)) return;
    const line = index + 1;
    if (isSummary(message)) visit({ line, kind: 'summary', text });
    else visit({ line, kind: message.data.role === 'user' ? 'typed' : 'agent', text });
  });
}

/** Whether the session holds a finished compaction of OpenCode's own. */
export async function opencodeCompacted(path: string): Promise<boolean> {
  const parsed = parseSessionPath(path);
  if (parsed === null) return false;
  const read = await withStore(parsed.db, (store) => {
    const messages = readMessages(store, parsed.sessionId);
    return messages.ok ? ok(messages.value.some(isSummary)) : messages;
  });
  return read.ok && read.value;
}
