// What the Gemini CLI's model sees right now, rebuilt from its chat in one forward pass: the live
// history (after the newest compression, whose summary opens it), the exact fill, every
// compression of the file, and the calls measured since the live history began.
import { ok } from '../result';
import type { ContextEntry, LiveCall, LiveContext, Result, SessionInfo } from '../types';
import { readChat } from './chatState';
import { unansweredFork, usageBreakdownOf, type GeminiFillOptions } from './fill';
import type { PlacedMessage } from './conversation';
import { readGeminiSessionInfo } from './listing';
import { liveMessages } from './messages';
import { modelOf, tokensOf } from './records';

export interface GeminiLiveContextOptions extends GeminiFillOptions {
  /** Picker information already known (saves reading the file twice). */
  session?: SessionInfo;
}

/**
 * Each live gemini message with counts written after the newest compression is one measured call
 * (the kept messages before it measured a longer history that no longer exists).
 */
export function liveCalls(live: readonly PlacedMessage[], entries: readonly ContextEntry[], compactedAt: number | null): LiveCall[] {
  const messageOf = new Map<string, number>();
  for (const entry of entries) for (const ref of entry.uuids) messageOf.set(ref, entry.messageIndex);
  return live.flatMap(({ message, offset }) => {
    const tokens = tokensOf(message);
    const index = messageOf.get(message.id);
    if (tokens === null || index === undefined || (compactedAt !== null && offset <= compactedAt)) return [];
    // Billed for its thoughts, but the CLI strips them from the history it sends next.
    return [
      {
        from: index,
        to: index,
        usage: usageBreakdownOf(tokens),
        carriedOutputTokens: tokens.output,
        model: modelOf(message),
        at: typeof message.timestamp === 'string' ? message.timestamp : null,
      },
    ];
  });
}

export async function readGeminiLiveContext(path: string, options: GeminiLiveContextOptions = {}): Promise<Result<LiveContext>> {
  const info = options.session === undefined ? await readGeminiSessionInfo(path) : ok(options.session);
  if (!info.ok) return info;
  const session = info.value;
  const read = await readChat(path, false);
  if (!read.ok) return read;
  const { state, diagnostics, size, legacy } = read.value;
  const live = state.conversation.list();
  const built = liveMessages(live, path);
  const fill = state.fill(options);
  // Until its first call, a fork reads back with the sizes its compaction planned.
  const planned = unansweredFork(state.conversation, live) !== null ? state.conversation.forkOf?.planned : undefined;
  return ok({
    session,
    source: 'chain',
    model: fill.model ?? session.model,
    messages: built.messages,
    entries: built.entries,
    fill,
    compactions: state.compactions.all(),
    diagnostics: [...diagnostics, ...built.diagnostics],
    calls: liveCalls(live, built.entries, state.compactions.compactedAt),
    // A legacy chat is one JSON object the CLI rewrites whole: no prefix of it is the same read.
    ...(legacy ? {} : { readEnd: size }),
    ...(planned !== undefined ? { planned } : {}),
  } satisfies LiveContext);
}
