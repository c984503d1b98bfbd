// Any agent's live context as the engine's input: the messages as sent, each completed call's usage
// (items are sized from it), and each message's source refs (record uuids, or an agent's own item
// refs) so a compaction result can be mapped back onto the session file by the agent's fork writer.
// Module by module, not the engine's index: `inspect` loads this without the summarizers.
import { type Context, estimateTokenizer, type Tokenizer } from '../engine';
import { adapterOf } from './agents';
import { keepingReads } from './common/readMemo';
import { contextOf } from './handle/contextOf';
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
  // The agent's own tool names, so its reads, writes and commands are told apart.
  return contextOf(live, adapterOf(live.session.agent).tools, estimate);
}
