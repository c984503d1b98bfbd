// Either side of one of an OpenCode-family agent's own compactions, from its database: the session's
// messages before the compaction request (`event.uuid`), and after it up to the model's first answer
// that is not the summary (the request, the summary, the synthetic "Continue…" or the next prompt:
// what the model read before it spoke again). The rows stay in the database after a compaction,
// so both sides are the same rows cut at two places.
import type { CompactionSides } from '../../port';
import { fail, ok } from '../../result';
import type { CompactionEvent, LiveContext, Result } from '../../types';
import { withStore } from '../opencodeStore';
import type { OpencodeFlavour } from './flavour';
import { isAssistant, isSummary, readMessages } from './history';
import { liveContextOf } from './liveContext';
import { parseSessionPath } from './paths';
import { readOpencodeWindow } from './window';

export async function readOpencodeCompaction(
  flavour: OpencodeFlavour,
  live: LiveContext,
  event: CompactionEvent,
  env?: Readonly<Record<string, string | undefined>>,
): Promise<Result<CompactionSides>> {
  const session = live.session;
  const parsed = parseSessionPath(session.path);
  if (parsed === null) return fail('invalid-input', `Not a session of ${flavour.name}: ${session.path}`, session.path);
  const window = await readOpencodeWindow(flavour, session.model, session.cwd, env);
  return withStore(parsed.db, (store) => {
    const rows = readMessages(store, parsed.sessionId);
    if (!rows.ok) return rows;
    const all = rows.value;
    const at = all.findIndex((message) => message.id === event.uuid);
    if (at < 0) return fail('not-found', `No compaction ${event.uuid} in session ${parsed.sessionId}`, session.path);
    const answer = all.findIndex((message, index) => index > at && isAssistant(message) && !isSummary(message));
    const end = answer < 0 ? all.length : answer;
    return ok({ before: liveContextOf(session, all.slice(0, at), { window }), after: liveContextOf(session, all.slice(0, end), { window }) });
  });
}
