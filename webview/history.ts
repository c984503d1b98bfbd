// The compaction history: every compaction of this session, the agent's own and ours, newest
// first, with what it saved, how it was verified and (expandable) the summary it left behind.
import type { HistoryEntry, HookActivity } from '../src/protocol/messages';
import { el, icon } from './dom';
import type { Disclosures } from './disclosure';
import { beforeAfter, clockTime, newestFirst } from './logic/format';
import { hookActivityLine } from './logic/hookActivity';
import { renderVerification } from './preview';

function renderEntry(entry: HistoryEntry, disclosures: Disclosures): HTMLElement {
  const ours = entry.source === 'contextLens';
  const who = ours ? 'Context Lens' : 'agent';
  const line = el(
    'div',
    { class: 'history-line' },
    el('time', { datetime: entry.at ?? '' }, clockTime(entry.at)),
    el('span', { class: `history-source source-${entry.source}` }, icon(ours ? 'pulse' : 'hubot'), ` ${who}`),
    el('span', {}, entry.trigger),
    entry.focus ? el('q', {}, entry.focus) : null,
    el('span', {}, beforeAfter(entry.beforeTokens, entry.afterTokens, entry.savingsPct)),
    entry.verification ? el('span', {}, `constraints ${entry.verification.constraintsKept}/${entry.verification.constraintsTotal}`) : null,
  );
  // There is no history action in the protocol, so the fork's resume command is shown as
  // selectable text rather than as a button.
  const fork = entry.fork ? el('p', { class: 'small' }, 'Fork ', el('strong', { class: 'mono' }, entry.fork.sessionId), ' · resume with ', el('code', { class: 'mono', title: entry.fork.path }, entry.fork.resumeCommand)) : null;
  const details: HTMLElement[] = [];
  if (entry.verification) details.push(renderVerification(entry.verification));
  if (entry.summary) details.push(el('pre', { class: 'summary-text' }, entry.summary));
  return el(
    'li',
    { class: 'history-entry', 'data-testid': 'history-entry', 'data-source': entry.source },
    line,
    fork,
    entry.hooks ? renderHooks(entry.hooks) : null,
    details.length ? disclosures.details(`history-${entry.id}`, [entry.summary ? 'Summary and verification' : 'Verification'], details) : null,
  );
}

/** What our Claude Code hooks did around one of the agent's compactions. */
function renderHooks(hooks: HookActivity): HTMLElement {
  const { failed, text } = hookActivityLine(hooks);
  return el('p', { class: 'small history-hooks', 'data-testid': 'history-hooks', 'data-failed': String(failed) }, icon(failed ? 'warning' : 'pin', failed ? 'Context Lens hooks, failed' : 'Context Lens hooks'), ' ', text);
}

export function renderHistory(history: readonly HistoryEntry[], disclosures: Disclosures): HTMLElement[] {
  if (history.length === 0) return [];
  return [el('section', { class: 'history', 'aria-labelledby': 'history-title' }, el('h2', { id: 'history-title' }, 'History'), el('ol', { class: 'history-list' }, ...newestFirst(history).map((entry) => renderEntry(entry, disclosures))))];
}
