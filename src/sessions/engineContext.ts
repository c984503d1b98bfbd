// Any agent's live context as the engine's input: the messages as sent, each completed call's usage
// (items are sized from it), and each message's source refs (record uuids, or an agent's own item
// refs) so a compaction result can be mapped back onto the session file by the agent's fork writer.
// Module by module, not the engine's index: `inspect` loads this without the summarizers.
import { contextFromMessages, type Context, estimateTokenizer, type Tokenizer } from '../engine';
import { adapterOf } from './agents';
import { keepingReads } from './common/readMemo';
import { promptTokensOf } from './common/usage';
import type { LiveContext } from './types';

/**
 * Every caller (panel, `inspect`, `compact`, hooks, MCP) builds the context here with the same
 * estimate, so an item has one token count everywhere: the calls measure it, the estimate only
 * splits a measured step among the items written in it and sizes what no call measured yet.
 * (`estimate` is for tests that compare estimators; production code leaves it.)
 */
export function engineContextOf(live: LiveContext, estimate: Tokenizer = estimateTokenizer): Context {
  // A resident process gets the same live context back for an unchanged session (readMemo.ts).
  if (!keepingReads() || estimate !== estimateTokenizer) return build(live, estimate);
  const known = kept.get(live) ?? build(live, estimate);
  kept.set(live, known);
  return known;
}

const kept = new WeakMap<LiveContext, Context>();

function build(live: LiveContext, estimate: Tokenizer): Context {
  const sourceRefs: string[][] = [];
  for (const entry of live.entries) sourceRefs[entry.messageIndex] = entry.uuids;
  return contextFromMessages({
    ...(live.system ? { system: live.system } : {}),
    ...(live.tools ? { tools: live.tools } : {}),
    // Rebuilt from the chain: the request's system prompt and tools were sent but not recorded.
    headNotRecorded: live.system === undefined && live.tools === undefined,
    messages: live.messages,
    calls: live.calls.map((call) => ({ from: call.from, to: call.to, promptTokens: promptTokensOf(call.usage), outputTokens: call.carriedOutputTokens ?? call.usage.outputTokens })),
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
    vocabulary: adapterOf(live.session.agent).tools,
  });
}
