// Any agent's live context as the engine's input: the messages as sent, the gauge's exact total,
// and each message's source refs (record uuids, or an agent's own item refs) so a compaction result
// can be mapped back onto the session file by the agent's fork writer.
// Module by module, not the engine's index: `inspect` loads this without the summarizers.
import { contextFromMessages } from '../engine/fromMessages';
import type { Context } from '../engine/model';
import type { Tokenizer } from '../engine/tokens/tokenizer';
import type { LiveContext } from './types';

/** `tokenizer`: the host counts on a worker thread; others take the engine's default. */
export function engineContextOf(live: LiveContext, tokenizer?: Tokenizer): Context {
  const sourceRefs: string[][] = [];
  for (const entry of live.entries) sourceRefs[entry.messageIndex] = entry.uuids;
  return contextFromMessages({
    ...(live.system ? { system: live.system } : {}),
    ...(live.tools ? { tools: live.tools } : {}),
    // Rebuilt from the chain: the request's system prompt and tools were sent but not recorded.
    headNotRecorded: live.system === undefined && live.tools === undefined,
    messages: live.messages,
    // The gauge's exact number (readFill) plus the estimate of what was written after the last
    // response: the messages hold both, and the next request will too. 0 means nothing counted the
    // live context yet: count ourselves.
    ...(live.fill.usedTokens > 0 ? { usedTokens: live.fill.usedTokens + live.fill.pendingTokens } : {}),
    windowTokens: live.fill.windowTokens,
    sourceRefs,
    // Paths in summaries and stubs are said relative to where the agent ran.
    ...(live.session.cwd ? { workspace: live.session.cwd } : {}),
    ...(tokenizer ? { tokenizer } : {}),
  });
}
