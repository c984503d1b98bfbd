// Every call a Gemini session paid for, for its cost: each gemini message with counts, once per id
// (a message written again, kept by a compression or written back by a resume is the same call),
// rewound ones included (they were paid). A subagent's chats (`chats/<session id>/`) are its
// subagents. The compression's own two model calls leave no counts in the chat: they are not here.
import { ok, withFile } from '../result';
import type { Result, SessionCall, SessionCalls, SessionInfo } from '../types';
import { usageBreakdownOf } from './fill';
import { readGeminiSessionInfo } from './listing';
import { chatPlaceOf, listSubagentFiles } from './paths';
import { scanChat } from './reader';
import { asMessage, modelOf, tokensOf } from './records';
import { messagesIn } from './usageLog';

async function callsOf(path: string): Promise<Result<SessionCall[]>> {
  return withFile(path, async (handle) => {
    const byId = new Map<string, SessionCall>();
    await scanChat(handle, path, {}, ({ record }) => {
      for (const value of messagesIn(record)) {
        const message = asMessage(value);
        const tokens = message === null ? null : tokensOf(message);
        if (message === null || tokens === null) continue;
        byId.set(message.id, {
          usage: usageBreakdownOf(tokens),
          model: modelOf(message),
          at: typeof message.timestamp === 'string' ? message.timestamp : null,
        });
      }
    });
    return ok([...byId.values()]);
  });
}

export async function readGeminiSessionCalls(session: SessionInfo): Promise<Result<SessionCalls>> {
  const own = await callsOf(session.path);
  if (!own.ok) return own;
  const place = chatPlaceOf(session.path);
  const subagents: SessionCalls['subagents'] = [];
  if (place !== null && place.parentSessionId === undefined) {
    for (const path of await listSubagentFiles(place.projectDir, session.id)) {
      const [info, calls] = await Promise.all([readGeminiSessionInfo(path), callsOf(path)]);
      if (info.ok && calls.ok) subagents.push({ session: info.value, calls: calls.value });
    }
  }
  return ok({ calls: own.value, subagents });
}
