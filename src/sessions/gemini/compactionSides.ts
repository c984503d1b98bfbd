// Either side of one of the Gemini CLI's own compressions, from its chat. The compression leaves no
// marker: it rewrites the history (a `$set.messages` snapshot: the summary, the model's "Got it…",
// then the recent messages it kept verbatim), so what it kept is that whole snapshot, not only the
// summary; the messages the CLI kept often hold the person's latest words. Before it: the chat up to
// the snapshot's line; after it: the chat up to the end of that line, before the model spoke again.
import type { CompactionSides } from '../port';
import { lineEnd, readFilePrefix } from '../common/filePrefix';
import { fail, ok } from '../result';
import type { CompactionEvent, LiveContext, Result, SessionInfo } from '../types';

export async function readGeminiCompaction(
  live: LiveContext,
  event: CompactionEvent,
  read: (session: SessionInfo) => Promise<Result<LiveContext>>,
): Promise<Result<CompactionSides>> {
  const path = live.session.path;
  if (event.offset === undefined || event.offset <= 0)
    return fail('invalid-input', 'This compression has no place in the chat to read the history before it from', path);
  const at = (end: number) => readFilePrefix(path, end, (copy) => read({ ...live.session, path: copy }));
  const before = await at(event.offset);
  if (!before.ok) return before;
  let end: number;
  try {
    end = await lineEnd(path, event.offset);
  } catch (error) {
    return fail('io', `Could not read the chat after its compression: ${(error as Error).message}`, path);
  }
  const after = await at(end);
  if (!after.ok) return after;
  return ok({ before: before.value, after: after.value });
}
