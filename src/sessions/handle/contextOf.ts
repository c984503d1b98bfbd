// A live context as the engine's input, given the agent's tool vocabulary: what engineContext.ts
// builds for callers that know only the session, and a session handle builds with its adapter's.
import { contextFromMessages, estimateTokenizer, type Context, type Tokenizer, type ToolVocabulary } from '../../engine';
import { promptTokensOf } from '../common/usage';
import type { LiveContext } from '../types';

export function contextOf(live: LiveContext, vocabulary: ToolVocabulary, estimate: Tokenizer = estimateTokenizer): Context {
  const sourceRefs: string[][] = [];
  for (const entry of live.entries) sourceRefs[entry.messageIndex] = entry.uuids;
  return contextFromMessages({
    ...(live.system ? { system: live.system } : {}),
    ...(live.tools ? { tools: live.tools } : {}),
    // Rebuilt from the chain: the request's system prompt and tools were sent but not recorded.
    headNotRecorded: live.system === undefined && live.tools === undefined,
    messages: live.messages,
    calls: live.calls.map((call) => ({
      from: call.from,
      to: call.to,
      promptTokens: promptTokensOf(call.usage),
      outputTokens: call.carriedOutputTokens ?? call.usage.outputTokens,
    })),
    // Without usable calls: the gauge's exact number (readFill) plus the estimate of what was written
    // after the last response. 0 means nothing counted the live context yet: count ourselves.
    ...(live.fill.usedTokens > 0 ? { usedTokens: live.fill.usedTokens + live.fill.pendingTokens } : {}),
    // A fork before its first call: sized as its compaction planned it, not re-estimated.
    ...(live.planned !== undefined && live.calls.length === 0 ? { planned: live.planned } : {}),
    ...(live.headResent !== undefined ? { headResent: live.headResent } : {}),
    windowTokens: live.fill.windowTokens,
    sourceRefs,
    // Paths in summaries and stubs are said relative to where the agent ran.
    ...(live.session.cwd ? { workspace: live.session.cwd } : {}),
    tokenizer: estimate,
    // The agent's own tool names, so its reads, writes and commands are told apart.
    vocabulary,
  });
}
