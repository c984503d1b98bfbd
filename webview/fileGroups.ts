// The map grouped by file: every read, edit or write of one file as one row (how many tool calls, tokens it holds now,
// what carrying them has cost so far), costliest first. Small (one row per file): rebuilt on change.
import { formatUsd } from '../src/protocol/format';
import type { CostView } from '../src/protocol/messages';
import { isPriced, unpricedText } from '../src/protocol/costText';
import { el, icon } from './dom';
import { groupCountText, sortGroups, type MapSort } from './logic/costView';
import { exactTokens } from './logic/format';

export function renderFileGroups(cost: CostView | null, sort: MapSort): HTMLElement[] {
  if (cost === null) return [el('p', { class: 'muted' }, 'Reading what the session cost…')];
  const groups = sortGroups(cost.byResource, sort);
  if (groups.length === 0) return [el('p', { class: 'muted' }, 'No file was read in the live context.')];
  const unpriced = unpricedText(cost);
  const usd = (value: number): string => (isPriced(cost) ? formatUsd(value) : '—');
  const header = el(
    'div',
    { class: 'file-row file-header', role: 'row' },
    ...['file', 'touched by', 'tokens now', 'cost so far'].map((name) => el('span', { role: 'columnheader' }, name)),
  );
  const rows = groups.map((group) =>
    el(
      'div',
      {
        class: 'file-row',
        role: 'row',
        'data-testid': 'file-group',
        title: `${group.resource}: ${groupCountText(group)}, ${exactTokens(group.tokens)} tokens in the context now, ${usd(group.usd)} for carrying them so far`,
      },
      el('span', { role: 'gridcell', class: 'file-name mono' }, icon('file'), ` ${group.resource}`),
      el('span', { role: 'gridcell' }, groupCountText(group)),
      el('span', { role: 'gridcell', class: 'num' }, exactTokens(group.tokens)),
      el('span', { role: 'gridcell', class: 'num', 'data-testid': 'file-group-cost' }, usd(group.usd)),
    ),
  );
  return [
    el('div', { class: 'file-groups-grid', role: 'grid', 'aria-label': 'Cost by file' }, header, ...rows),
    ...(unpriced ? [el('p', { class: 'muted small' }, icon('info'), ` ${unpriced}`)] : []),
  ];
}
