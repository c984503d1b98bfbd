// What the panel says about the live proxy: the gauge's line (what reached the model of the agent's
// last request, exactly, with the cache figures; what our edits took out), the part of the bar the
// agent holds but the model did not get, and the map's live fates in words. DOM-free, unit-tested.
import type { Fill, LiveFate, LiveProxyState } from '../../src/protocol/messages';
import { eventTime, exactTokens, plural } from './format';

/** What reached the model: exact from the response's usage (input + cache read + cache write), else our estimate. */
export function sentToModel(live: LiveProxyState): { tokens: number; exact: boolean } {
  const usage = live.usage;
  return usage ? { tokens: usage.inputTokens + usage.cacheReadTokens + usage.cacheCreationTokens, exact: true } : { tokens: live.sentTokens, exact: false };
}

/** The honest line when no request through the proxy matched the followed session. */
function noMatchLine(unmatched: NonNullable<LiveProxyState['unmatched']>): string {
  return `Live proxy · no match for this session: ${plural(unmatched.requests, 'request', 'requests')} through it (the newest at ${eventTime(unmatched.at)}) name no session and carry none of its tool calls`;
}

export function liveProxyLine(live: LiveProxyState): string {
  if (live.requests === 0) return live.unmatched ? noMatchLine(live.unmatched) : 'Live proxy · no request of this session yet';
  const saved = live.agentTokens - live.sentTokens;
  const sent = sentToModel(live);
  const how = live.usage
    ? `exact: ${exactTokens(live.usage.cacheReadTokens)} read from the model's cache, ${exactTokens(live.usage.cacheCreationTokens)} written to it, ${exactTokens(live.usage.inputTokens)} uncached`
    : 'estimate';
  const last =
    saved > 0
      ? `sent to the model after live edits: ${exactTokens(sent.tokens)} tokens (${how}) of the agent's ~${exactTokens(live.agentTokens)} (−${exactTokens(saved)})`
      : `the last request went through as the agent sent it: ${exactTokens(sent.tokens)} tokens (${how})`;
  const parts = [
    `Live proxy · ${last}`,
    `${plural(live.edits, 'tool result', 'tool results')} stubbed, cleared or truncated and ${exactTokens(live.savedTokens)} tokens not sent over ${plural(live.requests, 'request', 'requests')}`,
  ];
  if (live.failedOpen > 0) parts.push(`${plural(live.failedOpen, 'request', 'requests')} forwarded as sent after an error`);
  // A session its requests do not name was found by a tool call of its transcript: say so, it is an inference.
  if (live.matchedBy === 'tool-call') parts.push('matched by its tool call ids');
  if (live.unmatched) parts.push(`${plural(live.unmatched.requests, 'later request', 'later requests')} matched no session`);
  return parts.join(' · ');
}

/**
 * The stretch of the bar past the fill that the agent holds but the live edits kept from the model,
 * in percent of the window; null when nothing was taken out.
 */
export function heldNotSent(fill: Fill, live: LiveProxyState): { left: number; width: number; title: string } | null {
  const saved = live.agentTokens - live.sentTokens;
  if (saved <= 0) return null;
  const left = Math.min(100, (fill.usedTokens / fill.windowTokens) * 100);
  const width = Math.min(100 - left, (saved / fill.windowTokens) * 100);
  if (width <= 0) return null;
  return {
    left,
    width,
    title: `Held by the agent, not sent: ~${exactTokens(saved)} tokens the live proxy stubbed, cleared or truncated in the last request (the agent holds ~${exactTokens(live.agentTokens)})`,
  };
}

/** "3 stubbed, 1 cleared" over the map's items, most frequent first. */
export function liveFatesText(items: readonly LiveFate[]): string {
  const counts = new Map<string, number>();
  for (const item of items) counts.set(item.fate, (counts.get(item.fate) ?? 0) + 1);
  return [...counts]
    .sort((a, b) => b[1] - a[1])
    .map(([fate, count]) => `${exactTokens(count)} ${fate}`)
    .join(', ');
}
