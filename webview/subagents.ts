// The session's subagents under its cost line: each one's own calls, fill (the prompt of its latest
// call) and cost, costliest first. Their calls are in the session's total above; here they are apart.
import { formatTokens, formatUsd } from '../src/protocol/format';
import type { CostView } from '../src/protocol/messages';
import { el } from './dom';
import { sortSubagents, subagentCostText } from './logic/costView';
import { exactTokens, plural } from './logic/format';

/** The summary and rows of the subagents' section; nothing without subagents. */
export function subagentRows(cost: CostView): HTMLElement[] {
  if (cost.subagents.length === 0) return [];
  const agents = sortSubagents(cost.subagents);
  const total = agents.reduce((sum, agent) => sum + agent.usd, 0);
  const calls = agents.reduce((sum, agent) => sum + agent.calls, 0);
  const header = el(
    'div',
    { class: 'subagent-row file-header', role: 'row' },
    ...['subagent', 'calls', 'fill', 'cost'].map((name) => el('span', { role: 'columnheader' }, name)),
  );
  const rows = agents.map((agent) =>
    el(
      'div',
      {
        class: 'subagent-row',
        role: 'row',
        'data-testid': 'subagent',
        title: `${agent.title}: ${plural(agent.calls, 'call')}, ${exactTokens(agent.tokens)} tokens in its latest prompt, ${subagentCostText(agent)}${agent.started ? `; ${agent.started}` : ''}`,
      },
      el(
        'span',
        { role: 'gridcell', class: 'subagent-title' },
        agent.title,
        agent.started
          ? el(
              'span',
              { class: `subagent-started small${agent.inheritedMost ? ' inherited-most' : ''}`, 'data-testid': 'subagent-started' },
              ` · ${agent.started}`,
            )
          : null,
      ),
      el('span', { role: 'gridcell', class: 'num' }, exactTokens(agent.calls)),
      el('span', { role: 'gridcell', class: 'num' }, formatTokens(agent.tokens)),
      el('span', { role: 'gridcell', class: 'num', 'data-testid': 'subagent-cost' }, subagentCostText(agent)),
    ),
  );
  return [
    el('summary', {}, `${plural(agents.length, 'subagent')}: ${formatUsd(total)} · ${plural(calls, 'call')}`),
    el('div', { class: 'subagents-grid', role: 'grid', 'aria-label': 'Subagents' }, header, ...rows),
  ];
}
