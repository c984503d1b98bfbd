// Claude Code's live context → the engine's `Context`. The engine is agent-neutral, so this is the
// one place that decides which transcript facts it sees: messages as sent, the gauge's exact total
// and, per message, the record uuids a compaction result must point back to.
import { contextFromMessages, type Context } from '../../engine';
import type { LiveContext } from '../types';

export function engineContextOf(live: LiveContext): Context {
  const sourceRefs: string[][] = [];
  const summaryMessageIndexes: number[] = [];
  for (const entry of live.entries) {
    sourceRefs[entry.messageIndex] = entry.uuids;
    if (entry.kind === 'compact-summary') summaryMessageIndexes.push(entry.messageIndex);
  }
  return contextFromMessages({
    ...(live.system ? { system: live.system } : {}),
    ...(live.tools ? { tools: live.tools } : {}),
    messages: live.messages,
    // The gauge's number (readFill): the last response's pending output is not in it, so items
    // scale to what the gauge shows. 0 means nothing counted the live context yet: count ourselves.
    ...(live.fill.usedTokens > 0 ? { usedTokens: live.fill.usedTokens } : {}),
    windowTokens: live.fill.windowTokens,
    sourceRefs,
    summaryMessageIndexes,
  });
}
