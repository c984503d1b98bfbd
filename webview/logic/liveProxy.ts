// The gauge's line about the live proxy: what reached the model of the agent's last request, what
// our edits took out, and what the model read from its prompt cache. DOM-free, unit-tested.
import type { LiveProxyState } from '../../src/protocol/messages';
import { exactTokens } from './format';

const plural = (count: number, one: string, many: string): string => `${exactTokens(count)} ${count === 1 ? one : many}`;

export function liveProxyLine(live: LiveProxyState): string {
  const saved = live.agentTokens - live.sentTokens;
  const last =
    saved > 0
      ? `the last request sent ${exactTokens(live.sentTokens)} of the agent's ${exactTokens(live.agentTokens)} tokens (−${exactTokens(saved)} by our edits)`
      : `the last request went through as the agent sent it (${exactTokens(live.agentTokens)} tokens)`;
  const parts = [`Live proxy: ${last}`, `${plural(live.edits, 'tool result', 'tool results')} stubbed, cleared or truncated in ${plural(live.requests, 'request', 'requests')}`];
  if (live.usage) parts.push(`the model read ${exactTokens(live.usage.cacheReadTokens)} tokens from its cache and wrote ${exactTokens(live.usage.cacheCreationTokens)}`);
  if (live.failedOpen > 0) parts.push(`${plural(live.failedOpen, 'request', 'requests')} forwarded as sent after an error`);
  return parts.join(' · ');
}
