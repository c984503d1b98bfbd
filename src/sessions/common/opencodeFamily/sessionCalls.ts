// Every call an OpenCode-family session paid for, for its cost: one per assistant message (OpenCode writes
// one per model call, the summariser's included), with the session's subagents (child sessions)
// each read the same way.
import { fail, ok } from '../../result';
import type { Result, SessionCall, SessionCalls, SessionInfo } from '../../types';
import { isAssistant, readMessages } from './history';
import { sessionsIn } from './listing';
import { modelOf } from './messages';
import type { OpencodeFlavour } from './flavour';
import { parseSessionPath } from './paths';
import { isoOf, promptOf, tokensOf } from './rows';
import { withStore, type OpencodeStore } from '../opencodeStore';

function callsOf(store: OpencodeStore, sessionId: string): Result<SessionCall[]> {
  const messages = readMessages(store, sessionId);
  if (!messages.ok) return messages;
  return ok(
    messages.value.flatMap((message) => {
      const tokens = isAssistant(message) ? tokensOf(message.data.tokens) : null;
      if (tokens === null || promptOf(tokens) + tokens.output === 0) return [];
      return [
        {
          usage: {
            inputTokens: tokens.input,
            cacheCreationInputTokens: tokens.cacheWrite,
            cacheReadInputTokens: tokens.cacheRead,
            outputTokens: tokens.output + tokens.reasoning,
          },
          model: modelOf(message),
          at: isoOf(message.timeCreated),
        },
      ];
    }),
  );
}

export async function readOpencodeSessionCalls(flavour: OpencodeFlavour, session: SessionInfo): Promise<Result<SessionCalls>> {
  const parsed = parseSessionPath(session.path);
  if (parsed === null) return fail('invalid-input', `Not a session of ${flavour.name}: ${session.path}`, session.path);
  return withStore(parsed.db, (store) => {
    const calls = callsOf(store, parsed.sessionId);
    if (!calls.ok) return calls;
    const children = sessionsIn(flavour, parsed.db, store, { parentId: parsed.sessionId });
    if (!children.ok) return children;
    const subagents: SessionCalls['subagents'] = [];
    for (const child of children.value) {
      const childCalls = callsOf(store, child.id);
      if (childCalls.ok) subagents.push({ session: child, calls: childCalls.value });
    }
    return ok({ calls: calls.value, subagents });
  });
}
