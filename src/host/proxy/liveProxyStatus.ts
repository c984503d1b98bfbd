// The live proxy's status bar item: on, and what it saved on the agent's last request; the tooltip
// has the figures behind it and says a click stops it. Free of `vscode`.
import type { LiveProxyState } from '../../protocol/messages';
import { formatTokens } from '../../protocol/format';
import { thousands as exact } from '../../base/format';

export function liveProxyStatus(url: string, summary: LiveProxyState | null): { text: string; tooltip: string } {
  const lines = [`Context Lens live proxy on ${url}: claude started in a new terminal goes through it.`];
  let text = '$(radio-tower) Proxy on';
  // No request of the followed session yet (only unmatched ones): nothing saved to report.
  if (summary && summary.requests > 0) {
    const saved = summary.agentTokens - summary.sentTokens;
    if (saved > 0) text += ` · −${formatTokens(saved)}`;
    lines.push(
      saved > 0
        ? `The agent's last request: ${exact(summary.agentTokens)} tokens; ${exact(summary.sentTokens)} reached the model after live edits (−${exact(saved)}).`
        : `The agent's last request went through as sent (${exact(summary.agentTokens)} tokens).`,
      `${exact(summary.savedTokens)} tokens not sent over ${exact(summary.requests)} ${summary.requests === 1 ? 'request' : 'requests'}.`,
    );
  }
  lines.push('Click to stop.');
  return { text, tooltip: lines.join('\n') };
}
