// The compaction history: every compaction of this session, the agent's own and ours, newest
// first, with what it saved, how it was verified and (expandable) the summary it left behind.
import type { CompactionAuditView, HistoryEntry, HookActivity } from '../src/protocol/messages';
import { custom, el, icon } from './dom';
import { post } from './vscodeApi';
import type { Disclosures } from './disclosure';
import { agentLabelOr, type AgentLabel } from '../src/protocol/agents';
import { beforeAfter, eventTime, newestFirst, triggerText } from './logic/format';
import { hookActivityLine } from './logic/hookActivity';
import { renderVerification } from './preview';

const KIND_NAMES: Record<CompactionAuditView['carried'][number]['kind'], string> = {
  rule: 'rule',
  decision: 'decision',
  'open-loop': 'open loop',
  file: 'file',
};

/**
 * What the agent's compaction carried of what you had established and what it dropped: a line
 * that says the count ("Claude Code's compaction at 14:02 dropped 1 rule, 1 decision") and opens the list.
 */
function renderAudit(entry: HistoryEntry, audit: CompactionAuditView, agent: AgentLabel, disclosures: Disclosures): HTMLElement {
  const row = (fate: 'carried' | 'dropped', item: CompactionAuditView['carried'][number]): HTMLElement =>
    el(
      'li',
      { class: `audit-${fate}`, 'data-testid': `audit-${fate}` },
      icon(fate === 'carried' ? 'check' : 'close'),
      ` ${fate} · ${KIND_NAMES[item.kind]}: `,
      el('span', { class: item.kind === 'file' ? 'mono' : '' }, item.text),
    );
  const list = el(
    'ul',
    { class: 'audit-list small' },
    ...audit.dropped.map((item) => row('dropped', item)),
    ...audit.carried.map((item) => row('carried', item)),
  );
  const button = (action: 'openDiff' | 'redo', iconName: string, label: string, title: string): HTMLElement => {
    const node = custom('vscode-button', { icon: iconName, secondary: '', 'data-testid': `audit-${action}`, title }, label);
    node.addEventListener('click', () => post({ type: 'auditAction', compactionId: entry.id, action }));
    return node;
  };
  const actions = el(
    'div',
    { class: 'audit-actions' },
    button('openDiff', 'diff', 'Before / after', `The context before ${agent.name}'s compaction against what it kept, in the diff editor`),
    button(
      'redo',
      'pulse',
      'Redo with Context Lens',
      `Context Lens's compaction of the context as it stood before ${agent.name}'s, written as a new session you resume`,
    ),
  );
  const head = `${agent.name}'s compaction at ${eventTime(entry.at)} ${audit.sentence}${audit.carried.length > 0 ? ` (${audit.carried.length} carried)` : ''}`;
  const details = disclosures.details(`audit-${entry.id}`, [icon(audit.dropped.length > 0 ? 'warning' : 'pass'), ` ${head}`], [list, actions]);
  details.classList.add('history-audit');
  details.dataset.testid = 'history-audit';
  details.dataset.dropped = String(audit.dropped.length);
  return details;
}

function renderEntry(entry: HistoryEntry, agent: AgentLabel, disclosures: Disclosures, audit: CompactionAuditView | undefined): HTMLElement {
  const ours = entry.source === 'contextLens';
  // Who compacted, by name: "agent" next to "Context Lens" reads as a third party.
  const who = ours ? 'Context Lens' : agent.name;
  const line = el(
    'div',
    { class: 'history-line' },
    el('time', { datetime: entry.at ?? '', title: entry.at ? new Date(entry.at).toLocaleString() : 'no time in the transcript' }, eventTime(entry.at)),
    el('span', { class: `history-source source-${entry.source}` }, icon(ours ? 'pulse' : 'hubot'), ` ${who}`),
    el('span', {}, triggerText(entry.trigger)),
    entry.focus ? el('q', {}, entry.focus) : null,
    el('span', {}, beforeAfter(entry.beforeTokens, entry.afterTokens, entry.savingsPct)),
    entry.verification ? el('span', {}, `constraints ${entry.verification.constraintsKept}/${entry.verification.constraintsTotal}`) : null,
  );
  // There is no history action in the protocol, so the fork's resume command is shown as
  // selectable text rather than as a button.
  const fork = entry.fork
    ? el(
        'p',
        { class: 'small' },
        'Fork ',
        el('strong', { class: 'mono' }, entry.fork.sessionId),
        ' · resume with ',
        el('code', { class: 'mono', title: entry.fork.path }, entry.fork.resumeCommand),
      )
    : null;
  const details: HTMLElement[] = [];
  if (entry.verification) details.push(renderVerification(entry.verification));
  if (entry.summary) details.push(el('pre', { class: 'summary-text' }, entry.summary));
  return el(
    'li',
    { class: 'history-entry', 'data-testid': 'history-entry', 'data-source': entry.source },
    line,
    fork,
    audit ? renderAudit(entry, audit, agent, disclosures) : null,
    entry.hooks ? renderHooks(entry.hooks) : null,
    details.length ? disclosures.details(`history-${entry.id}`, [entry.summary ? 'Summary and verification' : 'Verification'], details) : null,
  );
}

/** What our hooks (or plugin) did around one of the agent's compactions. */
function renderHooks(hooks: HookActivity): HTMLElement {
  const { failed, text } = hookActivityLine(hooks);
  return el(
    'p',
    { class: 'small history-hooks', 'data-testid': 'history-hooks', 'data-failed': String(failed) },
    icon(failed ? 'warning' : 'pin', failed ? 'Context Lens hooks, failed' : 'Context Lens hooks'),
    ' ',
    text,
  );
}

/** What the History section is drawn from: the entries, and the followed session's agent (names its own). */
export interface HistoryInput {
  readonly entries: readonly HistoryEntry[];
  readonly agent: AgentLabel | undefined;
  /** The agent's own compactions audited, by entry id (absent until the session was read again for them). */
  readonly audits?: readonly CompactionAuditView[];
}

export function renderHistory({ entries: history, agent, audits = [] }: HistoryInput, disclosures: Disclosures): HTMLElement[] {
  if (history.length === 0) return [];
  const auditOf = (entry: HistoryEntry): CompactionAuditView | undefined =>
    entry.source === 'agent' ? audits.find((audit) => audit.id === entry.id) : undefined;
  return [
    el(
      'section',
      { class: 'history', 'aria-labelledby': 'history-title' },
      el('h2', { id: 'history-title' }, 'History'),
      el('ol', { class: 'history-list' }, ...newestFirst(history).map((entry) => renderEntry(entry, agentLabelOr(agent), disclosures, auditOf(entry)))),
    ),
  ];
}
